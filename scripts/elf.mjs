// The few ELF header facts the pack gate checks (class, byte order, type, machine, and the
// program header types that make a binary dynamic), read from the bytes of a file.
const PT_DYNAMIC = 2;
const PT_INTERP = 3;

/** { bits, little, type, machine, dynamic: [reasons] } or { error } for a non-ELF. */
export function elfFacts(bytes) {
	if (bytes.length < 64 || bytes.readUInt32BE(0) !== 0x7f454c46) return { error: 'not an ELF file' };
	const bits = { 1: 32, 2: 64 }[bytes[4]];
	const little = { 1: true, 2: false }[bytes[5]];
	if (bits === undefined || little === undefined) return { error: `bad ELF ident ${bytes[4]}/${bytes[5]}` };
	const u16 = (o) => (little ? bytes.readUInt16LE(o) : bytes.readUInt16BE(o));
	const u32 = (o) => (little ? bytes.readUInt32LE(o) : bytes.readUInt32BE(o));
	const u64 = (o) => Number(little ? bytes.readBigUInt64LE(o) : bytes.readBigUInt64BE(o));
	const [phoff, phentsize, phnum] = bits === 64 ? [u64(32), u16(54), u16(56)] : [u32(28), u16(42), u16(44)];
	if (phnum === 0 || phoff + phentsize * phnum > bytes.length) return { error: 'program headers out of range' };
	const ptypes = Array.from({ length: phnum }, (_, i) => u32(phoff + i * phentsize));
	const dynamic = [[PT_INTERP, 'PT_INTERP'], [PT_DYNAMIC, 'PT_DYNAMIC']]
		.filter(([t]) => ptypes.includes(t)).map(([, name]) => name);
	return { bits, little, type: u16(16), machine: u16(18), dynamic };
}
