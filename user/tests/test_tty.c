/*
 * The console's termios, as Linux's tty: TCGETS copies the kernel's 36-byte
 * struct termios (not the C library's larger one: a glibc tcgetattr buffer
 * must not overflow), with Linux's defaults; TCSETS, TCSETSF, TCFLSH,
 * TIOCGWINSZ/TIOCSWINSZ and FIONREAD; and the line discipline under each
 * mode, fed through TIOCSTI (bytes as if typed, which Linux 6.1 lets root
 * do): canonical editing (erase, word erase, kill, EOF, CR to NL) and
 * non-canonical reads (VMIN, VTIME, O_NONBLOCK).  Echo stays off while
 * bytes are fed, so nothing lands in the TAP output.  Passes unchanged on
 * Linux (the peer runs it as init on its serial console).
 */
#include "tap.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <termios.h>

/* Linux's struct termios, what TCGETS and TCSETS copy: 36 bytes. */
struct kernel_termios {
	unsigned int c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line, c_cc[19];
};
_Static_assert(sizeof(struct kernel_termios) == 36, "Linux's struct termios");

static struct kernel_termios saved;

static int tcgets(struct kernel_termios *t)
{
	return ioctl(0, TCGETS, t);
}

static int tcsets(const struct kernel_termios *t)
{
	return ioctl(0, TCSETS, t);
}

/* Feed s to the console's input as if typed. */
static void type(const char *s)
{
	for (; *s; s++)
		ioctl(0, TIOCSTI, s);
}

/* The saved modes with lflag's bits in clear cleared (echo always), and VMIN, VTIME. */
static int set_mode(unsigned int clear, int vmin, int vtime)
{
	struct kernel_termios t = saved;

	t.c_lflag &= ~(clear | ECHO | ECHONL);
	t.c_cc[VMIN] = vmin;
	t.c_cc[VTIME] = vtime;
	return tcsets(&t);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void check_tcgets(void)
{
	unsigned char buf[64];
	struct termios libc;
	int guard = 1;

	memset(buf, 0xaa, sizeof(buf));
	ok(ioctl(0, TCGETS, buf) == 0, "TCGETS on the console");
	for (size_t i = sizeof(struct kernel_termios); i < sizeof(buf); i++)
		guard &= buf[i] == 0xaa;
	ok(guard, "TCGETS wrote 36 bytes, not one more");
	memcpy(&saved, buf, sizeof(saved));
	ok((saved.c_lflag & (ICANON | ECHO | ISIG)) == (ICANON | ECHO | ISIG) &&
	   (saved.c_iflag & ICRNL) && (saved.c_oflag & (OPOST | ONLCR)) == (OPOST | ONLCR),
	   "Linux's defaults: ICANON ECHO ISIG, ICRNL, OPOST ONLCR (lflag %#o)", saved.c_lflag);
	ok(saved.c_cc[VINTR] == 3 && saved.c_cc[VQUIT] == 034 && saved.c_cc[VERASE] == 0177 &&
	   saved.c_cc[VKILL] == 025 && saved.c_cc[VEOF] == 4 && saved.c_cc[VMIN] == 1 &&
	   saved.c_cc[VTIME] == 0 && saved.c_cc[VSUSP] == 032 && saved.c_cc[VWERASE] == 027,
	   "Linux's control characters: ^C ^\\ DEL ^U ^D, VMIN 1, VTIME 0, ^Z, ^W");
	ok(tcgetattr(0, &libc) == 0 && libc.c_lflag == saved.c_lflag &&
	   libc.c_cc[VEOF] == saved.c_cc[VEOF], "the C library's tcgetattr agrees");
}

static void check_tcsets(void)
{
	struct kernel_termios t;

	ok(set_mode(ICANON, 0, 0) == 0 && tcgets(&t) == 0 && !(t.c_lflag & (ICANON | ECHO)) &&
	   t.c_cc[VMIN] == 0 && t.c_cc[VTIME] == 0, "TCSETS: ICANON and ECHO off, VMIN 0 read back");
	errno = 0;
	ok(ioctl(0, TCSETS, (void *)8) == -1 && errno == EFAULT && tcgets(&t) == 0 &&
	   !(t.c_lflag & ICANON), "TCSETS from a bad pointer: EFAULT, modes kept");
	ok(ioctl(0, TCSETSF, &saved) == 0 && tcgets(&t) == 0 && !memcmp(&t, &saved, sizeof(t)),
	   "TCSETSF puts the saved modes back");
	errno = 0;
	ok(ioctl(0, TCFLSH, TCIFLUSH) == 0 && ioctl(0, TCFLSH, 7) == -1 && errno == EINVAL,
	   "TCFLSH: TCIFLUSH 0, 7 EINVAL");
}

static void check_canonical(void)
{
	char buf[64];
	int n, avail = -1;

	set_mode(0, 1, 0);
	ioctl(0, TCFLSH, TCIFLUSH);
	type("ab\177c");
	n = ioctl(0, FIONREAD, &avail);
	ok(n == 0 && avail == 0, "FIONREAD: no complete line, 0 (%d)", avail);
	type("\r");
	n = ioctl(0, FIONREAD, &avail);
	ok(n == 0 && avail == 3, "FIONREAD: \"ac\\n\", 3 (%d)", avail);
	n = read(0, buf, sizeof(buf));
	ok(n == 3 && !memcmp(buf, "ac\n", 3), "canonical: DEL erases, CR reads as NL (%d bytes)", n);
	type("foo bar\027baz\n");
	n = read(0, buf, sizeof(buf));
	ok(n == 8 && !memcmp(buf, "foo baz\n", 8), "^W erases the last word (%d bytes)", n);
	type("xyz\025q\n");
	n = read(0, buf, sizeof(buf));
	ok(n == 2 && !memcmp(buf, "q\n", 2), "^U kills the line (%d bytes)", n);
	type("long line\n");
	n = read(0, buf, 4);
	ok(n == 4 && !memcmp(buf, "long", 4) && read(0, buf, sizeof(buf)) == 6,
	   "a short read takes part of a line, the next the rest");
	type("ab\004");
	n = read(0, buf, sizeof(buf));
	ok(n == 2 && !memcmp(buf, "ab", 2), "^D ends a line without itself (%d bytes)", n);
	type("\004");
	ok(read(0, buf, sizeof(buf)) == 0, "^D at a line's start reads as end of file");
	type("pq");
	set_mode(ICANON, 0, 0);
	n = read(0, buf, sizeof(buf));
	ok(n == 2 && !memcmp(buf, "pq", 2), "ICANON off: the half-typed line is readable (%d)", n);
}

static void check_noncanonical(void)
{
	char buf[16];
	double t0;
	int fl, n;

	set_mode(ICANON, 0, 0);
	ok(read(0, buf, sizeof(buf)) == 0, "VMIN 0, VTIME 0, no input: read returns 0 at once");
	set_mode(ICANON, 2, 0);
	type("xyz");
	n = read(0, buf, sizeof(buf));
	ok(n == 3 && !memcmp(buf, "xyz", 3), "VMIN 2: what came, all of it (%d)", n);
	set_mode(ICANON, 1, 0);
	type("\r");
	n = read(0, buf, sizeof(buf));
	ok(n == 1 && buf[0] == '\n', "ICANON off: ICRNL still reads CR as NL (%d)", n);
	set_mode(ICANON, 0, 3);
	t0 = now();
	n = read(0, buf, sizeof(buf));
	t0 = now() - t0;
	ok(n == 0 && t0 >= 0.25 && t0 < 5, "VMIN 0, VTIME 3: 0 after %.2f s (0.3 s)", t0);
	fl = fcntl(0, F_GETFL);
	fcntl(0, F_SETFL, fl | O_NONBLOCK);     /* the file others share: put back below */
	errno = 0;
	n = read(0, buf, sizeof(buf));
	ok(n == -1 && errno == EAGAIN, "O_NONBLOCK, VMIN 1, nothing typed: EAGAIN");
	type("k");
	n = read(0, buf, sizeof(buf));
	fcntl(0, F_SETFL, fl);
	ok(n == 1 && buf[0] == 'k', "O_NONBLOCK, a byte typed: that byte");
}

static void check_winsize(void)
{
	struct winsize old, set = { .ws_row = 31, .ws_col = 101 }, got;

	ok(ioctl(0, TIOCGWINSZ, &old) == 0 && ioctl(0, TIOCSWINSZ, &set) == 0 &&
	   ioctl(0, TIOCGWINSZ, &got) == 0 && got.ws_row == 31 && got.ws_col == 101,
	   "TIOCSWINSZ 31x101, TIOCGWINSZ reads it back");
	ioctl(0, TIOCSWINSZ, &old);
}

int main(void)
{
	struct kernel_termios end;

	mount_proc_sys();
	if (!isatty(0)) {
		skip("stdin is not a terminal");
		return tap_done();
	}
	check_tcgets();
	check_tcsets();
	check_canonical();
	check_noncanonical();
	check_winsize();
	ioctl(0, TCSETSF, &saved);
	ok(tcgets(&end) == 0 && !memcmp(&end, &saved, sizeof(end)), "the console's modes restored");
	return tap_done();
}
