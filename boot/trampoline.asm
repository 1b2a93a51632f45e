; The application processors' way into the kernel (Linux's
; arch/x86/realmode/rm/trampoline_64.S, foliOS's own).
;
; arch/x86_64/smpboot.c copies trampoline_start..trampoline_end to the
; page at TRAMPOLINE_PA (below 1 MiB: a start-up IPI names a real-mode
; page), fills in the parameters at its end, and sends INIT-SIPI-SIPI with
; vector TRAMPOLINE_PA >> 12.  The AP wakes in real mode at CS:IP =
; 0x0800:0000 with no stack and goes
;
;   real mode -> 32-bit protected mode -> long mode (boot/boot.asm's tables:
;   identity + higher half) -> secondary_startup_64 in the kernel's text,
;   which switches to the kernel's page tables and this AP's stack and calls
;   start_secondary(cpu).
;
; Everything before the jump to the higher half runs from the copy, so it
; addresses its data as TRAMPOLINE_PA + (label - trampoline_start).
; APs are started one at a time: one parameter block serves them all.

TRAMPOLINE_PA   equ 0x8000          ; arch/x86_64/smpboot.c: the same value
%define PA(x)   (TRAMPOLINE_PA + (x) - trampoline_start)

section .rodata
bits 16
global trampoline_start, trampoline_end
global tr_boot_cr3, tr_kernel_cr3, tr_stack, tr_cpu
trampoline_start:
    cli
    cld
    mov ax, cs
    mov ds, ax
    lgdt [tr_gdt_ptr - trampoline_start]    ; ds-relative in real mode
    mov eax, cr0
    or eax, 1                               ; PE
    mov cr0, eax
    jmp dword 0x10:PA(tr_protected)

bits 32
tr_protected:
    mov ax, 0x18
    mov ds, ax
    mov es, ax
    mov ss, ax
    mov eax, cr4
    or eax, (1 << 5) | (1 << 9) | (1 << 10) ; PAE, OSFXSR, OSXMMEXCPT (as boot.asm)
    mov cr4, eax
    mov eax, [PA(tr_boot_cr3)]              ; boot_pml4: maps this page 1:1
    mov cr3, eax
    mov ecx, 0xc0000080                     ; EFER
    rdmsr
    or eax, (1 << 8) | (1 << 11)            ; LME, NXE
    wrmsr
    mov eax, cr0
    and eax, ~(1 << 2)                      ; EM off
    or eax, (1 << 31) | (1 << 16) | (1 << 1) ; PG, WP, MP
    mov cr0, eax
    jmp 0x08:PA(tr_long)

bits 64
tr_long:
    mov rax, [rel tr_kernel_cr3]
    mov rsp, [rel tr_stack]
    mov edi, [rel tr_cpu]
    mov rbx, secondary_startup_64           ; the higher half: boot_pml4 maps it
    jmp rbx

align 8
tr_gdt:
    dq 0
    dq 0x00af9a000000ffff                   ; 0x08: 64-bit code
    dq 0x00cf9a000000ffff                   ; 0x10: 32-bit code
    dq 0x00cf92000000ffff                   ; 0x18: data
tr_gdt_ptr:
    dw tr_gdt_ptr - tr_gdt - 1
    dd PA(tr_gdt)

align 8                                     ; parameters, filled in per AP
tr_boot_cr3:    dq 0
tr_kernel_cr3:  dq 0
tr_stack:       dq 0
tr_cpu:         dq 0
trampoline_end:

; In the kernel's text: leave the boot tables for the kernel's own (rax),
; on the AP's stack (rsp); edi = the CPU number.
section .text
extern start_secondary
secondary_startup_64:
    mov cr3, rax
    xor ebp, ebp                            ; ends frame-pointer backtraces
    call start_secondary
.halt:
    cli
    hlt
    jmp .halt
