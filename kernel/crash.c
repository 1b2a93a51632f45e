/*
 * Deliberate kernel crashes, for testing the failure paths and for students
 * to see what a panic looks like: "crash=KIND" on the command line, with
 * KIND one of
 *   page-fault    write to an unmapped kernel address (CR2 and error code)
 *   bug           a failed BUG_ON (panic with a reason)
 *   double-fault  a kernel stack overflow into the guard page below the boot
 *                 stack: the #PF cannot push its frame, so #DF runs on IST1
 *   divide        a divide error
 */
#include "linux/cmdline.h"
#include "linux/printk.h"
#include "linux/string.h"
#include <asm/arch.h>

#define CRASH_ADDR 0xffffc90000dead00UL

static noinline_fn void crash_page_fault(void)
{
	*(volatile unsigned long *)CRASH_ADDR = 1;
}


void crash_if_asked(void)
{
	char kind[24];

	if (!cmdline_get(boot_info.cmdline, "crash", kind, sizeof(kind)))
		return;
	pr_warn("crash: deliberate %s\n", kind);
	if (!strcmp(kind, "page-fault"))
		crash_page_fault();
	else if (!strcmp(kind, "bug"))
		BUG_ON(true, "crash=bug on the command line");
	else if (!strcmp(kind, "double-fault"))
		arch_crash_stack_overflow();
	else if (!strcmp(kind, "divide"))
		arch_crash_divide();
	pr_warn("crash: unknown kind '%s' (page-fault, bug, double-fault, divide)\n", kind);
}
