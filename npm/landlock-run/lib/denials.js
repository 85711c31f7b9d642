'use strict';
// The --explain-json report: one JSON object per line, one line per denial the sandbox
// made (see "DENIAL REPORTS" in landlock-run(1)). parseDenials() turns it into typed
// objects and gives each path back as its exact bytes.

const KINDS = ['fs', 'net', 'scope', 'syscall', 'capability'];
const ERRNOS = ['EACCES', 'EPERM', 'EXDEV'];
// What the system-call filter answers (--no-network, the baseline): a kernel without it.
// ENODEV: root's shared mapping of a file where it can write a directory (a file system without mmap).
const FILTER_ERRNOS = ['EAFNOSUPPORT', 'ENOSYS', 'EPERM', 'EACCES', 'EOPNOTSUPP', 'ENODEV'];
const OPTIONAL_STRINGS = ['replace', 'hidden', 'hidden_beneath', 'remove', 'family', 'why'];

// The launcher writes a byte that is not valid UTF-8 as \udcXX (Python's surrogateescape):
// every other code point is its UTF-8 encoding.
function bytesOf(s) {
	const out = [];
	for (const ch of s) {
		const c = ch.codePointAt(0);
		if (c >= 0xdc80 && c <= 0xdcff) out.push(c - 0xdc00);
		else out.push(...new TextEncoder().encode(ch));
	}
	return Uint8Array.from(out);
}

function check(ok, line, what) {
	if (!ok) throw new TypeError(`landlock-run: --explain-json line ${line}: ${what}`);
}

function isStrings(v) {
	return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

function denial(text, line) {
	let d;
	try {
		d = JSON.parse(text);
	} catch (e) {
		throw new TypeError(`landlock-run: --explain-json line ${line}: not JSON (${e.message})`);
	}
	check(d !== null && typeof d === 'object', line, 'not a JSON object');
	if (d.kind === 'unlisted') {
		// the last line past the distinct denials listed: how many more there were
		check(Number.isInteger(d.denials) && d.denials > 0, line, 'unlisted is not a count');
		return { kind: 'unlisted', denials: d.denials };
	}
	if (d.kind === 'unseen') {
		// failed calls of processes closed to the tracer: denials or not, nobody can say
		check(Number.isInteger(d.calls) && d.calls > 0 && Number.isInteger(d.pid) &&
			typeof d.comm === 'string', line, 'unseen is not a count with a process');
		return { kind: 'unseen', calls: d.calls, pid: d.pid, comm: d.comm };
	}
	check(KINDS.includes(d.kind), line, `unknown kind ${JSON.stringify(d?.kind)}`);
	check(Number.isInteger(d.pid) && typeof d.comm === 'string' && typeof d.syscall === 'string', line,
		'pid, comm or syscall missing');
	check(isStrings(d.rights) && d.rights[0] === d.right &&
		(d.kind === 'syscall' ? FILTER_ERRNOS : ERRNOS).includes(d.errno), line,
		'right, rights or errno not as documented');
	// a grant never advised (landlock-run(1), NEVER ADVISED) has its why instead of an allow
	check(('why' in d) !== ('allow' in d), line, 'neither allow nor why, or both');
	check('why' in d || (isStrings(d.allow) && [0, 2, 4].includes(d.allow.length)), line,
		'allow is not options and arguments');
	const out = { kind: d.kind, pid: d.pid, comm: d.comm, syscall: d.syscall, right: d.right,
		rights: d.rights, errno: d.errno, allow: d.allow ?? [] };
	// the mode bits refuse it too (Landlock was asked first): the one value there is
	check(!('also_refused_by' in d) || d.also_refused_by === 'mode_bits', line,
		'also_refused_by is not mode_bits');
	if ('also_refused_by' in d) out.alsoRefusedBy = d.also_refused_by;
	for (const key of OPTIONAL_STRINGS) {
		if (key in d) {
			check(typeof d[key] === 'string', line, `${key} is not a string`);
			out[key === 'hidden_beneath' ? 'hiddenBeneath' : key] = d[key];
		}
	}
	if (typeof d.path === 'string') Object.assign(out, { path: d.path, pathBytes: bytesOf(d.path) });
	else check(d.kind !== 'fs', line, 'a filesystem denial without a path');
	if ('pattern' in d || 'count' in d) {
		// the denials of one kind beneath /proc/PID: path is the first of count processes
		check(d.kind === 'fs' && typeof d.pattern === 'string' && Number.isInteger(d.count) &&
			d.count > 1, line, 'pattern and count are not a fold of processes');
		Object.assign(out, { pattern: d.pattern, count: d.count });
	}
	// a capability the launcher dropped: no grant gives it back, so only its why
	check(d.kind !== 'capability' || (typeof d.path === 'string' && 'why' in d), line,
		'a capability refusal without its path or why');
	if (d.kind === 'net') {
		check(Number.isInteger(d.port), line, 'a network denial without a port');
		out.port = d.port;
	}
	if (d.kind === 'scope') {
		check(typeof d.scope === 'string' && (Number.isInteger(d.target) || 'path' in out), line,
			'a scope denial without its scope, target or path');
		out.scope = d.scope;
		if (Number.isInteger(d.target)) out.target = d.target;
	}
	return out;
}

/**
 * The denials of an --explain-json report (its text, or the bytes of the file), in the
 * order the launcher reported them. A last line without its newline (the launcher killed
 * while writing it) is left out; any other line that is not a denial is a TypeError.
 */
function parseDenials(data) {
	const text = typeof data === 'string' ? data : new TextDecoder().decode(data);
	const lines = text.split('\n');
	lines.pop(); // after the last newline: nothing, or a line not finished
	return lines.map((l, i) => [l, i + 1]).filter(([l]) => l !== '').map(([l, n]) => denial(l, n));
}

module.exports = { parseDenials };
