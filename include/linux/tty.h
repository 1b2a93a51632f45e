/*
 * The console tty (fs/tty_io.c, fs/n_tty.c), after Linux's tty layer: the
 * UART driver (arch) hands each received byte to the line discipline from
 * its interrupt; n_tty edits lines (echo, erase, kill, signals) in a 4 KiB
 * read buffer and read returns a line at a time — or, with ICANON off,
 * the bytes as they come (VMIN, VTIME) — as the termios says.  One tty:
 * the console.
 *
 * Lock order (the kernel's tree: mm/rmap.c): atomic_read_lock (a mutex:
 * one reader at a time) -> tty->lock (irq: always irqsave, the receive
 * interrupt takes it) -> tasklist_lock (^C's kill_pgrp; tty->session and
 * tty->pgrp change under it, include/linux/sched.h), the console lock
 * (echo) and read_wait's lock.  A reader sleeps and copies to user memory
 * (mmap_lock) with neither spinlock held.
 */
#ifndef _LINUX_TTY_H
#define _LINUX_TTY_H

#include "linux/fs.h"
#include "linux/mutex.h"
#include "linux/spinlock.h"
#include "linux/wait.h"
#include "uapi/asm-generic/termbits.h"

#define N_TTY_BUF_SIZE  4096            /* Linux's: a line may be this long */

/*
 * The tty's state.  The interrupt handler writes read_head (and erases
 * back to canon_head); readers advance read_tail.  Indices run freely and
 * are taken modulo N_TTY_BUF_SIZE.
 */
struct tty_struct {
	spinlock_t lock;                /* the fields below read_buf..throttled: reader vs interrupt */
	struct mutex atomic_read_lock;  /* one reader at a time takes whole lines (Linux's) */
	char read_buf[N_TTY_BUF_SIZE];
	unsigned long read_flags[N_TTY_BUF_SIZE / 64];  /* bit i: read_buf[i] ends a line */
	unsigned int read_head;         /* next byte the interrupt stores */
	unsigned int canon_head;        /* end of the last complete line (ICANON) */
	unsigned int read_tail;         /* next byte a reader takes */
	bool throttled;                 /* the UART's receive interrupt is off: buffer full */
	struct ktermios termios;        /* modes and control characters (tty->lock) */
	int pgrp;                       /* the foreground process group: gets ^C, ^\ (0: none) */
	int session;                    /* the session it controls, 0: none (tasklist_lock) */
	wait_queue_head_t read_wait;    /* readers wait here for input */
	struct winsize winsize;         /* TIOCGWINSZ (tty->lock) */
	unsigned int column;            /* the output's cursor column, for ONOCR and tabs (tty->lock) */
};

/* The termios flags n_tty looks at (Linux's L_ICANON(tty) and friends). */
#define L_FLAG(tty, f)  ((tty)->termios.c_lflag & (f))
#define I_FLAG(tty, f)  ((tty)->termios.c_iflag & (f))
#define O_FLAG(tty, f)  ((tty)->termios.c_oflag & (f))

struct task_struct;

extern struct tty_struct console_tty;
#define TTYS0_DEV       ((4 << 8) | 64) /* its device number: /dev/ttyS0 */

/* The console's file: fd 0, 1, 2 of init and /dev/console (fs/tty_io.c). */
extern const struct file_operations console_fops, ttyS_fops, tty_current_fops;
extern struct inode console_inode;

/* Job control (fs/tty_jobctrl.c). */
int __tty_check_change(struct tty_struct *tty, int sig);
int tty_check_change(struct tty_struct *tty);
void tty_open_proc_set_tty(struct tty_struct *tty);
void disassociate_ctty(struct task_struct *leader);
long tty_jobctrl_ioctl(struct tty_struct *tty, unsigned int cmd, unsigned long arg);
struct inode *tty_dev_lookup(const char *path);

/* From the UART's receive interrupt (interrupts off). */
bool n_tty_check_throttle(struct tty_struct *tty);
void n_tty_receive_char(struct tty_struct *tty, unsigned char c);

long n_tty_read(struct tty_struct *tty, char *ubuf, unsigned long count, bool nonblock);
void n_tty_write(struct tty_struct *tty, const char *in, size_t n);
bool n_tty_input_available(const struct tty_struct *tty, bool poll);
unsigned int n_tty_inq(struct tty_struct *tty);
void n_tty_set_termios(struct tty_struct *tty, const struct termios *t, bool flush);
void n_tty_flush_input(struct tty_struct *tty);

/* The UART driver's flow control (arch): stop and restart its receive interrupt. */
void uart_throttle(void);
void uart_unthrottle(void);

#endif
