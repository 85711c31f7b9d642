/*
 * inject32: a real i386 program (built with gcc -m32, freestanding: no libc,
 * so no multilib packages) that pushes each byte of its argument into the
 * terminal on fd 0 with ioctl(0, TIOCSTI), entering the kernel through the
 * i386 system-call ABI as any 32-bit binary the command could run does.
 * Prints "ok", or "errno N" for the first refusal (exit 1).
 *
 *   inject32 TEXT
 */
#define I386_EXIT  1
#define I386_WRITE 4
#define I386_IOCTL 54
#define TIOCSTI	   0x5412

static long sys3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
	return ret;
}

static void say(const char *s)
{
	long n = 0;

	while (s[n])
		n++;
	sys3(I386_WRITE, 1, (long)s, n);
}

__attribute__((noreturn)) static void finish(int status)
{
	for (;;)
		sys3(I386_EXIT, status, 0, 0);
}

/* Called by _start with the initial stack: argc, then argv. */
__attribute__((noreturn, used)) void start(long *stack)
{
	char **argv = (char **)(stack + 1), *p, num[8] = "\n";
	long ret, i = sizeof num - 1;

	if (stack[0] != 2)
		finish(2);
	for (p = argv[1]; *p; p++) {
		ret = sys3(I386_IOCTL, 0, TIOCSTI, (long)p);
		if (ret >= 0)
			continue;
		num[i--] = '\0';
		num[i--] = '\n';
		for (ret = -ret; ret > 0 && i >= 0; ret /= 10)
			num[i--] = (char)('0' + ret % 10);
		say("errno ");
		say(num + i + 1);
		finish(1);
	}
	say("ok\n");
	finish(0);
}

__asm__(".globl _start\n"
	"_start:\n"
	"	push %esp\n"
	"	call start\n");
