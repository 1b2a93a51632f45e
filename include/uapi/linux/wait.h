/* wait4(2)'s options (linux/wait.h). */
#ifndef _UAPI_LINUX_WAIT_H
#define _UAPI_LINUX_WAIT_H

#define WNOHANG         0x00000001
#define WUNTRACED       0x00000002
#define WCONTINUED      0x00000008

#endif
