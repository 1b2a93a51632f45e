/* The terminal ioctls foliOS answers (asm-generic/ioctls.h). */
#ifndef _UAPI_LINUX_IOCTLS_H
#define _UAPI_LINUX_IOCTLS_H

#define TCGETS          0x5401          /* struct termios (36 bytes) */
#define TCSETS          0x5402          /* set now */
#define TCSETSW         0x5403          /* set once output drained */
#define TCSETSF         0x5404          /* drain, flush input, set */
#define TCFLSH          0x540B          /* TCIFLUSH, TCOFLUSH, TCIOFLUSH */
#define TIOCSCTTY       0x540E          /* become the controlling tty (arg 1: steal it) */
#define TIOCGPGRP       0x540F          /* int: the foreground process group */
#define TIOCSPGRP       0x5410
#define TIOCSTI         0x5412          /* a byte as if typed (Linux 6.1 lets root do it) */
#define TIOCGWINSZ      0x5413          /* struct winsize */
#define TIOCSWINSZ      0x5414
#define FIONREAD        0x541B          /* int: bytes a read would get (TIOCINQ) */
#define TIOCNOTTY       0x5422          /* give up the controlling tty */
#define TIOCGSID        0x5429          /* int: the session the tty controls */

#endif
