; Context switch between two kernel stacks.
;
;   struct task_struct *__switch_to(unsigned long *prev_sp, unsigned long next_sp,
;                                   struct task_struct *prev)
;
; Saves the callee-saved registers on the current stack, stores the stack
; pointer in *prev_sp, loads next_sp and pops the next task's registers.
; The next task continues where it called __switch_to, or, for a new task,
; at the return address its creator put on its stack (ret_from_fork).
; Either way it gets prev in rax: the task it was switched from, whose
; switch it finishes (Linux's switch_to(prev, next, last)).
bits 64
section .text
global __switch_to
__switch_to:
    mov rax, rdx
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
