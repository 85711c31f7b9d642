/*
 * What the kernel can do: the one table of Landlock rights, each with the
 * ABI that added it, and the downgrade from what the user asked for to
 * what this kernel enforces. Every ABI mask is derived from the tables, so
 * teaching the launcher a new right is one row.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "abi.h"
#include "out.h"
#include "seccomp.h"
#include "where.h"

/* In bit order, so every list prints in one stable order. */
const struct name fs_rights[] = {
	{LANDLOCK_ACCESS_FS_EXECUTE, "execute", 1, RIGHT_ON_FILE | RIGHT_READ},
	{LANDLOCK_ACCESS_FS_WRITE_FILE, "write_file", 1, RIGHT_ON_FILE},
	{LANDLOCK_ACCESS_FS_READ_FILE, "read_file", 1, RIGHT_ON_FILE | RIGHT_READ},
	{LANDLOCK_ACCESS_FS_READ_DIR, "read_dir", 1, RIGHT_READ},
	{LANDLOCK_ACCESS_FS_REMOVE_DIR, "remove_dir", 1, 0},
	{LANDLOCK_ACCESS_FS_REMOVE_FILE, "remove_file", 1, 0},
	{LANDLOCK_ACCESS_FS_MAKE_CHAR, "make_char", 1, 0},
	{LANDLOCK_ACCESS_FS_MAKE_DIR, "make_dir", 1, 0},
	{LANDLOCK_ACCESS_FS_MAKE_REG, "make_reg", 1, 0},
	{LANDLOCK_ACCESS_FS_MAKE_SOCK, "make_sock", 1, 0},
	{LANDLOCK_ACCESS_FS_MAKE_FIFO, "make_fifo", 1, 0},
	{LANDLOCK_ACCESS_FS_MAKE_BLOCK, "make_block", 1, 0},
	{LANDLOCK_ACCESS_FS_MAKE_SYM, "make_sym", 1, 0},
	{LANDLOCK_ACCESS_FS_REFER, "refer", 2, 0},		       /* Linux 5.19 */
	{LANDLOCK_ACCESS_FS_TRUNCATE, "truncate", 3, RIGHT_ON_FILE},   /* 6.2 */
	{LANDLOCK_ACCESS_FS_IOCTL_DEV, "ioctl_dev", 5, RIGHT_ON_FILE}, /* 6.10 */
	/* connect, or sendmsg with an address, to a pathname UNIX socket made
	 * outside the sandbox: another process's door (Docker, a session bus) */
	{LANDLOCK_ACCESS_FS_RESOLVE_UNIX, "resolve_unix", 9, RIGHT_ON_FILE},
	{0, NULL, 0, 0},
};

/* Row i is enum net_kind i and the right 1 << i; the names are the -v keys. */
const struct name net_rights[] = {
	{LANDLOCK_ACCESS_NET_BIND_TCP, "tcp_bind", 4, 0}, /* 6.7 */
	{LANDLOCK_ACCESS_NET_CONNECT_TCP, "tcp_connect", 4, 0},
	{LANDLOCK_ACCESS_NET_BIND_UDP, "udp_bind", 10, 0},
	/* connect, and send with an address: a preset destination is not used */
	{LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP, "udp_connect", 10, 0},
	{0, NULL, 0, 0},
};
_Static_assert(LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP == 1ULL << NET_UDP_CONNECT &&
		       LANDLOCK_ACCESS_NET_BIND_UDP == 1ULL << NET_UDP_BIND &&
		       LANDLOCK_ACCESS_NET_CONNECT_TCP == 1ULL << NET_TCP_CONNECT &&
		       LANDLOCK_ACCESS_NET_BIND_TCP == 1ULL << NET_TCP_BIND,
	       "net_rights[] row i is the right 1 << i");

const struct name scope_names[] = {
	{LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET, "abstract-unix", 6, 0}, /* 6.12 */
	{LANDLOCK_SCOPE_SIGNAL, "signal", 6, 0},
	{0, NULL, 0, 0},
};

/* restrict_self flags, named by the options that ask for them. */
const struct name log_flags[] = {
	{LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF, "--no-log", 7, 0}, /* 6.15 */
	{LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON, "--log-subprocesses", 7, 0},
	{LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF, "--no-log-nested", 7, 0},
	{0, NULL, 0, 0},
};

/*
 * What the kernel offers and the launcher knowingly leaves unused, so the
 * probe can say so. TSYNC (restrict_self on every thread at once): the
 * launcher never has a second thread, and exec ends any other thread
 * anyway. The quiet flags (audit records left out per object): an option
 * for them needs audit-log tests on an ABI 10 kernel, which the project
 * cannot run yet. The bits only tell the rows apart.
 */
const struct name unused_features[] = {
	{LANDLOCK_RESTRICT_SELF_TSYNC, "tsync", 8, 0},
	{LANDLOCK_ADD_RULE_QUIET, "quiet", 10, 0},
	{0, NULL, 0, 0},
};

/* The rights of TABLE that ABI has, and that carry every flag in FLAGS. */
uint64_t rights_at(const struct name *table, int abi, unsigned flags)
{
	uint64_t mask = 0;

	for (; table->name; table++)
		if (table->abi <= abi && (table->flags & flags) == flags)
			mask |= table->bit;
	return mask;
}

/* The ABI that brought the newest row of TABLE. */
int newest_abi(const struct name *table)
{
	int abi = 1;

	for (; table->name; table++)
		abi = table->abi > abi ? table->abi : abi;
	return abi;
}

/* What --status-fd says confines the run, as --probe would say it. */
const char *enforcement(const struct policy *p)
{
	if (p->asked.learn)
		return "none";
	return p->kernel.abi >= newest_abi(fs_rights) ? "full" : "partial";
}

/* Why the ABI query failed, the first row that fits: the errno (0: any)
 * and whether a seccomp filter answered it rather than the kernel (where.c:
 * 1 it did, 0 the kernel did, -1 no telling; 2: any). The kernel answers
 * only EOPNOTSUPP, ENOSYS or a version to this query. */
static const struct query_failure {
	int err, filtered;
	const char *why;
} query_failures[] = {
	{EOPNOTSUPP, 2,
	 "Landlock is disabled on this system (add landlock to the lsm= kernel boot "
	 "parameter)"},
	{0, 1,
	 "a seccomp filter refuses the Landlock system calls (Seccomp: 2 in /proc/self/status): "
	 "allow landlock_create_ruleset, landlock_add_rule and landlock_restrict_self in its "
	 "profile (--security-opt seccomp=PROFILE; the defaults of podman, containerd 1.6+ and "
	 "Docker 20.10.18+ do)"},
	{0, -1,
	 "cannot query the Landlock ABI version (the kernel or the seccomp filter it runs under "
	 "refused it; no telling which)"},
	{ENOSYS, 2,
	 "Landlock is not supported by this kernel (it needs Linux 5.13 or later built "
	 "with CONFIG_SECURITY_LANDLOCK)"},
	{0, 2, "cannot query the Landlock ABI version"},
};

int detect_abi(void)
{
	int abi = landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	const struct query_failure *f = query_failures;
	int err = errno, filtered;

	if (abi == 0)
		die("cannot query the Landlock ABI version: the kernel answered 0");
	if (abi > 0)
		return abi;
	filtered = landlock_filtered();
	while ((f->err && f->err != err) || (f->filtered != 2 && f->filtered != filtered))
		f++;
	errno = err;
	die_errno("%s", f->why);
}

/* Features asked for by name are never dropped: refuse instead. */
static void require(const struct policy *p, const char *what, const char *name, int need)
{
	const struct effective *k = &p->kernel;

	if (k->abi >= need)
		return;
	if (p->asked.abi_limit && k->abi == p->asked.abi_limit)
		die("%s%s needs Landlock ABI %d, but --abi %d limits it to ABI %d", what, name,
		    need, p->asked.abi_limit, k->abi);
	die("%s%s needs Landlock ABI %d, but this kernel has ABI %d", what, name, need, k->abi);
}

static void require_each(const struct policy *p, const struct name *table, uint64_t asked,
			 const char *what)
{
	for (; table->name; table++)
		if (asked & table->bit)
			require(p, what, table->name, table->abi);
}

/* The size of the ruleset attribute up to the last field this ABI reads. */
static size_t attr_size(int abi)
{
	if (abi >= 10)
		return sizeof(struct landlock_ruleset_attr);
	if (abi >= 6)
		return offsetof(struct landlock_ruleset_attr, quiet_access_fs);
	if (abi >= 4)
		return offsetof(struct landlock_ruleset_attr, scoped);
	return offsetof(struct landlock_ruleset_attr, handled_access_net);
}

void plan_policy(struct policy *p, int kernel_abi)
{
	const struct request *r = &p->asked;
	struct effective *k = &p->kernel;
	uint64_t read;
	int i;

	memset(k, 0, sizeof *k);
	k->kernel_abi = kernel_abi;
	k->abi = kernel_abi < ABI_KNOWN ? kernel_abi : ABI_KNOWN;
	if (r->abi_limit && r->abi_limit < k->abi)
		k->abi = r->abi_limit;

	for (i = 0; i < NET_KINDS; i++)
		if (r->net[i].option)
			require(p, r->net[i].option, "", net_rights[i].abi);
	require_each(p, scope_names, r->scopes, "--scope ");
	require_each(p, log_flags, r->log_flags, "");
	if (r->strict)
		require(p, "--strict", " (every filesystem right enforced)", newest_abi(fs_rights));

	k->fs_abi = rights_at(fs_rights, k->abi, 0);
	k->file_rights = rights_at(fs_rights, k->abi, RIGHT_ON_FILE);
	read = rights_at(fs_rights, k->abi, RIGHT_READ);
	k->handled.handled_access_fs = r->reads_confined ? k->fs_abi : k->fs_abi & ~read;
	if (r->learn && r->nhidden) /* learning, confined by the hidden paths alone */
		k->handled.handled_access_fs = read;
	k->grant_rights[GRANT_RO] = read;
	k->grant_rights[GRANT_RW] = k->handled.handled_access_fs;
	k->grant_rights[GRANT_UNIX] = k->fs_abi & LANDLOCK_ACCESS_FS_RESOLVE_UNIX;
	/* --no-network: also every port rule this ABI has, none allowed */
	for (i = 0; i < NET_KINDS; i++)
		if (r->net[i].option || (r->no_network && net_rights[i].abi <= k->abi))
			k->handled.handled_access_net |= net_rights[i].bit;
	k->handled.scoped = r->scopes;
	k->attr_size = attr_size(k->abi);
	k->refused = refused_groups(r);
}

/* A comma list of TABLE's names, as bits; an unknown name is an error
 * that lists the known ones. */
uint64_t parse_names(const struct name *table, const char *option, const char *list, const char *at)
{
	struct out known;
	uint64_t bits = 0;
	const struct name *n;
	const char *s = list;

	for (;;) {
		size_t len = strcspn(s, ",");

		for (n = table; n->name; n++)
			if (strlen(n->name) == len && strncmp(s, n->name, len) == 0)
				break;
		if (!n->name) {
			out_start(&known, -1, ESCAPE_NONE);
			put_names(&known, table, ~0ULL, 0);
			die("%s: unknown name '%.*s' in '%s'%s (known: %.*s)", option, (int)len, s,
			    list, at, (int)known.len, known.buf);
		}
		bits |= n->bit;
		if (s[len] == '\0')
			return bits;
		s += len + 1;
	}
}

/* The keys -v and --probe share, with one meaning in both. */
void kv_abi_version(struct kv *kv, const struct policy *p)
{
	const struct effective *k = &p->kernel;
	/* Kernels before the errata query (Linux 6.15) answer EINVAL. */
	long errata = landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_ERRATA);

	kv_int(kv, "abi", k->kernel_abi);
	kv_int(kv, "abi_used", k->abi);
	kv_key(kv, "errata");
	if (errata < 0)
		outf(kv->o, "%s", kv->json ? "null" : "unknown");
	else
		outf(kv->o, kv->json ? "%ld" : "0x%lx", errata);
}

/* fs_handled: what the kernel enforces at abi_used; fs_missing: what this
 * launcher knows and that ABI lacks. */
void kv_fs(struct kv *kv, const struct policy *p)
{
	uint64_t known = rights_at(fs_rights, ABI_KNOWN, 0);

	kv_names(kv, "fs_handled", fs_rights, p->kernel.fs_abi);
	kv_names(kv, "fs_missing", fs_rights, known & ~p->kernel.fs_abi);
}

/* A port list as the options take it: 80,443,8000-8999; "any" unhandled. */
static void kv_ports(struct kv *kv, const char *key, const struct ports *ports, int handled)
{
	const char *sep = "";
	unsigned port = 0, end;

	kv_key(kv, key);
	if (!handled || !ports->listed) {
		outf(kv->o, "%s", handled ? "none" : "any");
		return;
	}
	for (; port < 65536; port = end + 1) {
		if (!port_listed(ports, port)) {
			end = port;
			continue;
		}
		for (end = port; end < 65535 && port_listed(ports, end + 1); end++)
			;
		outf(kv->o, "%s%u", sep, port);
		if (end > port)
			outf(kv->o, "-%u", end);
		sep = ",";
	}
}

/*
 * network_confined: all (every socket family but AF_UNIX refused), else the
 * protocols whose ports Landlock confines: tcp, udp, tcp,udp, or nothing.
 * network is the same with "none" for nothing, which read as "no network":
 * kept for scripts that read it, until the next release.
 */
void kv_network(struct kv *kv, const struct policy *p)
{
	static const char *const words[] = {"nothing", "tcp", "udp", "tcp,udp"};
	uint64_t net = p->kernel.handled.handled_access_net;
	int i = (net & (1 << NET_TCP_BIND | 1 << NET_TCP_CONNECT)) != 0;
	const char *word;

	i |= (net & (1 << NET_UDP_BIND | 1 << NET_UDP_CONNECT)) != 0 ? 2 : 0;
	word = p->kernel.refused & GROUP_NETWORK ? "all" : words[i];
	kv_word(kv, "network_confined", word);
	kv_word(kv, "network", strcmp(word, "nothing") ? word : "none");
}

/* -v: lines that cannot be mistaken for a failure ("landlock-run: "). */
void print_policy(const struct policy *p, struct out *err)
{
	const struct effective *k = &p->kernel;
	struct kv kv = {.o = err, .prefix = "landlock-run policy: "};
	int i;

	kv_abi_version(&kv, p);
	kv_fs(&kv, p);
	kv_names(&kv, "fs_confined", fs_rights, k->handled.handled_access_fs);
	kv_names(&kv, "fs_unrestricted", fs_rights, k->fs_abi & ~k->handled.handled_access_fs);
	for (i = 0; i < NET_KINDS; i++)
		kv_ports(&kv, net_rights[i].name, &p->asked.net[i],
			 (k->handled.handled_access_net & net_rights[i].bit) != 0);
	kv_network(&kv, p);
	kv_names(&kv, "baseline", syscall_groups, k->refused);
	kv_bool(&kv, "no_unix", (k->refused & GROUP_UNIX) != 0);
	kv_names(&kv, "scopes", scope_names, p->asked.scopes);
	kv_names(&kv, "log", log_flags, p->asked.log_flags);
	kv_end(&kv);
}

/* The option that lists ports for a net right: tcp_bind is --tcp-bind. */
void port_option(char *out, uint64_t right)
{
	const char *name = net_rights[__builtin_ctzll(right)].name; /* row i is 1 << i */
	size_t i;

	join(out, 24, "--", name, NULL);
	for (i = 2; out[i]; i++)
		out[i] = out[i] == '_' ? '-' : out[i];
}
