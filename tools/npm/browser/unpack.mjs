// Unpacks @sparticuz/chromium's brotli-packed chrome-headless-shell next to this file, into chromium/:
// the binary, SwiftShader's GL libraries beside it (where Chromium looks for them), the NSS/NSPR/expat libraries
// of al2023.tar.br in lib/ (for LD_LIBRARY_PATH, so only libc and libgcc come from the system), and a fontconfig
// file pointing at the bundled fonts. The package's own JavaScript is not used: it unpacks into /tmp at run time.
import { chmodSync, createReadStream, createWriteStream, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress } from "node:zlib";
import { extract } from "tar-fs";

const here = dirname(fileURLToPath(import.meta.url));
const packed = join(here, "node_modules/@sparticuz/chromium/bin");
const target = join(here, "chromium");
const staging = `${target}.partial`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });

const unbrotli = () => createBrotliDecompress({ chunkSize: 2 ** 21 });
await pipeline(createReadStream(join(packed, "chromium.br")), unbrotli(), createWriteStream(join(staging, "chromium")));
chmodSync(join(staging, "chromium"), 0o755);
await pipeline(createReadStream(join(packed, "swiftshader.tar.br")), unbrotli(), extract(staging));
await pipeline(createReadStream(join(packed, "al2023.tar.br")), unbrotli(), extract(staging)); // lib/
await pipeline(createReadStream(join(packed, "fonts.tar.br")), unbrotli(), extract(join(staging, "fonts")));
writeFileSync(join(staging, "fonts", "fonts.conf"), `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>${join(target, "fonts")}</dir><cachedir>${join(target, "fonts-cache")}</cachedir></fontconfig>
`);
rmSync(target, { recursive: true, force: true });
renameSync(staging, target);
