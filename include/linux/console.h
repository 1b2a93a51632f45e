/* The console: lines from the serial port with echo and backspace (fs/console.c). */
#ifndef _LINUX_CONSOLE_H
#define _LINUX_CONSOLE_H

#include "linux/fs.h"

/* Block until a line (or size bytes) was typed; returns its length. */
long console_read_line(char *buf, unsigned long size);

extern const struct file_operations console_fops;
extern struct inode console_inode;

#endif
