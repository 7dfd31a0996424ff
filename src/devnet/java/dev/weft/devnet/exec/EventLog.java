package dev.weft.devnet.exec;

import dev.weft.devnet.gen.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * The events of one message (or of the ante handler when {@code msgIndex} is null), as Cosmos SDK 0.50 emits them:
 * plain-string attributes, all indexed, each event of a message tagged with {@code msg_index}.
 */
public final class EventLog {
    private final String msgIndex;
    private final List<Event> events = new ArrayList<>();
    /** The Move side of coin movements on a Move chain, else null. */
    private final MoveCoinEvents moveCoins;

    public EventLog(Integer msgIndex) {
        this(msgIndex, null);
    }

    public EventLog(Integer msgIndex, MoveCoinEvents moveCoins) {
        this.msgIndex = msgIndex == null ? null : Integer.toString(msgIndex);
        this.moveCoins = moveCoins;
    }

    /** The Move events of coin movements, or null off Move chains. */
    MoveCoinEvents moveCoins() {
        return moveCoins;
    }

    /** Adds an event of alternating attribute keys and values. */
    public EventLog add(String type, String... kv) {
        List<Event.Attr> attrs = new ArrayList<>(kv.length / 2 + 1);
        for (int i = 0; i < kv.length; i += 2) attrs.add(new Event.Attr(kv[i], kv[i + 1], true));
        if (msgIndex != null) attrs.add(new Event.Attr("msg_index", msgIndex, true));
        events.add(new Event(type, List.copyOf(attrs)));
        return this;
    }

    /** The module's {@code message} event of an IBC or bank step ({@code message{module}}). */
    public EventLog module(String module) {
        return add("message", "module", module);
    }

    public List<Event> events() {
        return events;
    }

    /** Appends the events of another log (the events of a step kept only when it succeeds). */
    public void addAll(EventLog other) {
        events.addAll(other.events);
    }
}
