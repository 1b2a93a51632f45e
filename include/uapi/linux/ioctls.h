/* The terminal ioctls foliOS answers (asm-generic/ioctls.h). */
#ifndef _UAPI_LINUX_IOCTLS_H
#define _UAPI_LINUX_IOCTLS_H

#define TCGETS          0x5401
#define TIOCGWINSZ      0x5413

#endif
