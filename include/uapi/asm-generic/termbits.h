/*
 * Terminal settings as Linux's ioctls pass them (Linux's
 * include/uapi/asm-generic/termbits.h and termbits-common.h).  TCGETS and
 * TCSETS* copy struct termios, the kernel's 36 bytes — not the C
 * libraries' larger struct (musl's and glibc's add the speeds and more),
 * which they convert to and from.
 */
#ifndef _UAPI_ASM_GENERIC_TERMBITS_H
#define _UAPI_ASM_GENERIC_TERMBITS_H

typedef unsigned char cc_t;
typedef unsigned int speed_t;
typedef unsigned int tcflag_t;

#define NCCS 19
struct termios {
	tcflag_t c_iflag;               /* input modes */
	tcflag_t c_oflag;               /* output modes */
	tcflag_t c_cflag;               /* control modes */
	tcflag_t c_lflag;               /* local modes */
	cc_t c_line;                    /* line discipline */
	cc_t c_cc[NCCS];                /* control characters */
};
_Static_assert(sizeof(struct termios) == 36, "struct termios is 36 bytes in Linux's ABI");

/* The kernel's copy: the same, and the speeds (Linux's struct ktermios). */
struct ktermios {
	tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
	cc_t c_line;
	cc_t c_cc[NCCS];
	speed_t c_ispeed, c_ospeed;
};

struct winsize {
	unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};

/* c_cc indices; a control character of 0 (_POSIX_VDISABLE) is off */
#define VINTR    0
#define VQUIT    1
#define VERASE   2
#define VKILL    3
#define VEOF     4
#define VTIME    5
#define VMIN     6
#define VSWTC    7
#define VSTART   8
#define VSTOP    9
#define VSUSP   10
#define VEOL    11
#define VREPRINT 12
#define VDISCARD 13
#define VWERASE 14
#define VLNEXT  15
#define VEOL2   16

/* c_iflag */
#define IGNBRK  0000001
#define BRKINT  0000002
#define IGNPAR  0000004
#define PARMRK  0000010
#define INPCK   0000020
#define ISTRIP  0000040
#define INLCR   0000100
#define IGNCR   0000200
#define ICRNL   0000400
#define IXON    0002000
#define IXOFF   0010000
#define IXANY   0004000
#define IMAXBEL 0020000
#define IUTF8   0040000

/* c_oflag */
#define OPOST   0000001
#define OLCUC   0000002
#define ONLCR   0000004
#define OCRNL   0000010
#define ONOCR   0000020
#define ONLRET  0000040
#define TABDLY  0014000
#define XTABS   0014000         /* TAB3: tabs go out as spaces */

/* c_cflag */
#define CBAUD   0010017
#define B38400  0000017
#define CSIZE   0000060
#define CS8     0000060
#define CSTOPB  0000100
#define CREAD   0000200
#define PARENB  0000400
#define HUPCL   0002000
#define CLOCAL  0004000

/* c_lflag */
#define ISIG    0000001
#define ICANON  0000002
#define ECHO    0000010
#define ECHOE   0000020
#define ECHOK   0000040
#define ECHONL  0000100
#define NOFLSH  0000200
#define TOSTOP  0000400
#define ECHOCTL 0001000
#define ECHOPRT 0002000
#define ECHOKE  0004000
#define IEXTEN  0100000

/* TCFLSH's argument */
#define TCIFLUSH  0
#define TCOFLUSH  1
#define TCIOFLUSH 2

#endif
