; Context switch between two kernel stacks.
;
;   void __switch_to(unsigned long *prev_sp, unsigned long next_sp)
;
; Saves the callee-saved registers on the current stack, stores the stack
; pointer in *prev_sp, loads next_sp and pops the next task's registers.
; The next task continues where it called __switch_to, or, for a new task,
; at the return address its creator put on its stack (ret_from_fork).
bits 64
section .text
global __switch_to
__switch_to:
    push rbx
    push rbp
    push r12
    push r13
    push r14
    push r15
    mov [rdi], rsp
    mov rsp, rsi
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbp
    pop rbx
    ret
