/*
 * The return-hook trampoline (<asm/return_hook.h>).  It runs in place of a
 * function's return: the stack is as the caller left it at the call, so
 * 16-byte aligned; two pushes keep it so for the call into C, which gets
 * the function's return value (rax) as its argument.
 */
#include <asm/return_hook.h>

__asm__(".pushsection .text\n"
	".globl return_hook_trampoline\n"
	".type return_hook_trampoline, @function\n"
	"return_hook_trampoline:\n\t"
	"push %rax\n\t"
	"push %rdx\n\t"
	"mov %rax, %rdi\n\t"
	"call return_hook_handler\n\t"
	"mov %rax, %r11\n\t"
	"pop %rdx\n\t"
	"pop %rax\n\t"
	"jmp *%r11\n"
	".size return_hook_trampoline, . - return_hook_trampoline\n"
	".popsection");
