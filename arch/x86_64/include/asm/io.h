/* Port I/O (inb/outb …) and memory-mapped registers (readl/writel …, Linux's asm/io.h). */
#ifndef ASM_IO_H
#define ASM_IO_H

#include "linux/types.h"

static inline void outb(u16 port, u8 v)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outw(u16 port, u16 v)
{
	__asm__ __volatile__("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline u16 inw(u16 port)
{
	u16 v;

	__asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(u16 port, u32 v)
{
	__asm__ __volatile__("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline u32 inl(u16 port)
{
	u32 v;

	__asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/*
 * MMIO: one access of the register's width, never merged, split or
 * reordered by the compiler (the mapping is uncached: PAGE_KERNEL_NOCACHE).
 */
#define __MMIO_RW(name_r, name_w, type)                                         \
static inline type name_r(const volatile void *addr)                           \
{                                                                               \
	return *(const volatile type *)addr;                                    \
}                                                                               \
static inline void name_w(type v, volatile void *addr)                         \
{                                                                               \
	*(volatile type *)addr = v;                                             \
}
__MMIO_RW(readb, writeb, u8)
__MMIO_RW(readw, writew, u16)
__MMIO_RW(readl, writel, u32)
__MMIO_RW(readq, writeq, u64)
#undef __MMIO_RW

#endif
