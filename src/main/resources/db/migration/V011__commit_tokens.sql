-- Which commit moved each cursor: a writer whose commit failed without an answer asks whether the cursor carries its
-- own token, so another writer's identical commit (the same heights, after a lease changed hands) is not taken for it.
ALTER TABLE pipeline_cursor ADD COLUMN commit_token uuid;
