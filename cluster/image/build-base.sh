#!/usr/bin/env bash
# Builds Weft's image base without a container daemon or registry: a jlink'd Java runtime (only the modules Weft
# uses) plus the shared libraries it links against, taken from the build machine, an unprivileged user (uid 10001)
# and writable /tmp and /data, as one layer in a `docker save` tarball (OUT_DIR/weft-base.tar). Jib reads it as
# `tar://…` and puts Weft's own layers on top (pom.xml, profile `image`).
# Usage: build-base.sh OUT_DIR   (skips the work when OUT_DIR/weft-base.tar is newer than this script)
set -euo pipefail
dir="$1"
out="$dir/rootfs"
here="$(cd "$(dirname "$0")" && pwd)"
if [[ -f "$dir/weft-base.tar" && "$dir/weft-base.tar" -nt "$here/build-base.sh" ]]; then
  exit 0
fi
jlink_bin="${JAVA_HOME:+$JAVA_HOME/bin/}jlink"
command -v "$jlink_bin" >/dev/null || { echo "build-base.sh: jlink not found (needs a JDK 17)" >&2; exit 1; }

rm -rf "$dir"
mkdir -p "$out"
# jdeps --print-module-deps on target/weft.jar, plus what reflection and service loading need at run time:
# jdk.crypto.ec (TLS to a managed PostgreSQL), jdk.naming.dns (Hazelcast's Kubernetes DNS discovery),
# jdk.security.auth (zonky reads the uid through UnixSystem), jdk.zipfs and java.instrument.
modules=java.base,java.compiler,java.desktop,java.naming,java.scripting,java.security.jgss,java.sql,jdk.jfr
modules=$modules,jdk.management,jdk.unsupported,java.management,java.logging,java.xml,jdk.crypto.ec,jdk.naming.dns
modules=$modules,jdk.zipfs,java.instrument,jdk.security.auth
"$jlink_bin" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=2 \
  --output "$out/opt/java"

# Every shared library the runtime's ELF files need, at the path the dynamic loader looks for it.
# The desktop modules' X11, font, image and sound libraries are never loaded headless: not scanned, not shipped.
find "$out/opt/java/lib" \( -name 'libawt_xawt.so' -o -name 'libsplashscreen.so' -o -name 'libjsound.so' \
  -o -name 'libfontmanager.so' -o -name 'libjavajpeg.so' -o -name 'liblcms.so' \) -delete
libs=$(find "$out/opt/java" -type f \( -name '*.so' -o -perm -u+x \) -exec sh -c 'file "$1" | grep -q ELF && ldd "$1"' _ {} \; 2>/dev/null \
  | awk '/=> \//{print $3} /^\t\/lib/{print $1}' | sort -u)
for lib in $libs /lib64/ld-linux-x86-64.so.2; do
  real="$(readlink -f "$lib")"
  mkdir -p "$out$(dirname "$lib")"
  cp -L "$real" "$out$lib"
done
# glibc resolves users, groups and hosts through these
mkdir -p "$out/etc" "$out/tmp" "$out/data" "$out/home/weft" "$out/proc" "$out/dev" "$out/sys"
printf 'root:x:0:0:root:/root:/sbin/nologin\nweft:x:10001:10001:weft:/home/weft:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\nweft:x:10001:\n' > "$out/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$out/etc/nsswitch.conf"
cp /etc/ssl/certs/ca-certificates.crt "$out/etc/ca-certificates.crt" 2>/dev/null || true
chmod 1777 "$out/tmp"
chmod 0777 "$out/data"

# One layer, reproducible (sorted, root-owned, epoch times), described as `docker save` writes it.
work="$dir/save"
mkdir -p "$work"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$out" -cf "$work/layer.tar" .
diff_id=$(sha256sum "$work/layer.tar" | cut -d' ' -f1)
printf '{"architecture":"amd64","os":"linux","config":{},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]},"history":[{"created_by":"cluster/image/build-base.sh"}]}' \
  "$diff_id" > "$work/config.json"
printf '[{"Config":"config.json","RepoTags":["weft-base:local"],"Layers":["layer.tar"]}]' > "$work/manifest.json"
tar --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$work" -cf "$dir/weft-base.tar.part" manifest.json config.json layer.tar
rm -rf "$work"
mv "$dir/weft-base.tar.part" "$dir/weft-base.tar"
