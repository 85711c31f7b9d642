// Read an npm tarball (gzip'd ustar, as `npm pack` writes it) into memory without
// extracting it: the gate must see each member's mode and type exactly as packed.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const field = (block, start, len) => {
	const s = block.subarray(start, start + len).toString('latin1');
	const nul = s.indexOf('\0');
	return nul < 0 ? s : s.slice(0, nul);
};
const octal = (block, start, len) => parseInt(field(block, start, len).trim() || '0', 8);

/** Map of member name -> { type: 'file' | 'dir' | other typeflag, mode, data }. Throws on a bad archive. */
export function readTarball(file) {
	const tar = gunzipSync(readFileSync(file));
	const members = new Map();
	let pax = {};
	for (let off = 0; off + 512 <= tar.length;) {
		const header = tar.subarray(off, off + 512);
		if (header.every((b) => b === 0)) break;
		const size = octal(header, 124, 12);
		const flag = field(header, 156, 1) || '0';
		const data = tar.subarray(off + 512, off + 512 + size);
		if (data.length !== size) throw new Error(`member cut short at offset ${off}`);
		off += 512 + Math.ceil(size / 512) * 512;
		if (flag === 'x') { // pax header: its path= overrides the next member's name
			pax = Object.fromEntries(data.toString('utf8').split('\n').filter(Boolean)
				.map((rec) => rec.slice(rec.indexOf(' ') + 1).split(/=(.*)/s, 2)));
			continue;
		}
		const prefix = field(header, 345, 155);
		const name = pax.path ?? (prefix ? `${prefix}/` : '') + field(header, 0, 100);
		pax = {};
		const type = { 0: 'file', 5: 'dir' }[flag] ?? `typeflag ${flag}`;
		members.set(name, { type, mode: octal(header, 100, 8) & 0o7777, data });
	}
	if (members.size === 0) throw new Error('no members');
	return members;
}
