/* Console input: lines from the serial port with echo and backspace. */
#ifndef FOLIOS_CONSOLE_H
#define FOLIOS_CONSOLE_H

#include "kernel/types.h"

/* Block until a line (or size bytes) was typed; returns its length. */
long console_read_line(char *buf, unsigned long size);

#endif
