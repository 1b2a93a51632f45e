; foliOS boot: Multiboot2 header, 32-bit entry, switch to long mode.
;
; GRUB enters _start in 32-bit protected mode, paging off, with
; eax = Multiboot2 magic and ebx = physical address of the info block.
; We check the CPU, build throw-away page tables that map the first
; 1 GiB three times (identity, direct map, and the higher-half kernel),
; enable PAE + long mode + NX, and jump to the 64-bit kernel.
; arch/x86_64/mmu.c replaces these tables with the real direct map.
;
;   virtual                     physical
;   0x0000000000000000 +1GiB -> 0x0          (identity, dropped later)
;   0xffff888000000000 +1GiB -> 0x0          (direct map, PAGE_OFFSET)
;   0xffffffff80000000 +1GiB -> 0x0          (kernel image, -mcmodel=kernel)

KERNEL_VMA      equ 0xffffffff80000000
MB2_MAGIC       equ 0xe85250d6
MB2_BOOT_MAGIC  equ 0x36d76289
COM1            equ 0x3f8
DEBUG_EXIT_PORT equ 0xf4
EXIT_PANIC      equ 0x3e        ; matches arch/x86_64/power.c

section .multiboot2
align 8
mb2_header:
    dd MB2_MAGIC
    dd 0                                        ; i386 protected mode
    dd mb2_header_end - mb2_header
    dd -(MB2_MAGIC + 0 + (mb2_header_end - mb2_header))
    align 8
    dw 0, 0                                     ; end tag
    dd 8
mb2_header_end:

section .boot.text progbits alloc exec
bits 32
global _start
_start:
    cli
    mov esp, boot_stack32_top
    cmp eax, MB2_BOOT_MAGIC
    jne .no_multiboot
    mov edi, eax                                ; keep magic and info for kmain
    mov esi, ebx

    ; CPUID leaf 0x80000001 must exist and report LM (bit 29) and NX (bit 20)
    mov eax, 0x80000000
    cpuid
    cmp eax, 0x80000001
    jb .no_long_mode
    mov eax, 0x80000001
    cpuid
    test edx, 1 << 29
    jz .no_long_mode
    test edx, 1 << 20
    jz .no_nx

    ; boot page tables: PML4[0] and PML4[511] -> PDPTs -> one PD of 2 MiB leaves
    mov eax, boot_pdpt_lo
    or eax, 3
    mov [boot_pml4], eax
    mov [boot_pml4 + 273 * 8], eax              ; PAGE_OFFSET: early __va()
    mov eax, boot_pdpt_hi
    or eax, 3
    mov [boot_pml4 + 511 * 8], eax
    mov eax, boot_pd
    or eax, 3
    mov [boot_pdpt_lo], eax
    mov [boot_pdpt_hi + 510 * 8], eax
    xor ecx, ecx
.fill_pd:
    mov eax, ecx
    shl eax, 21
    or eax, 0x83                                ; P | RW | PS
    mov [boot_pd + ecx * 8], eax
    inc ecx
    cmp ecx, 512
    jb .fill_pd

    mov eax, cr4
    or eax, (1 << 5) | (1 << 9) | (1 << 10)     ; PAE, OSFXSR, OSXMMEXCPT
    mov cr4, eax
    mov eax, boot_pml4
    mov cr3, eax
    mov ecx, 0xc0000080                         ; EFER
    rdmsr
    or eax, (1 << 8) | (1 << 11)                ; LME, NXE
    wrmsr
    mov eax, cr0
    and eax, ~(1 << 2)                          ; EM off: SSE for user space
    or eax, (1 << 31) | (1 << 16) | (1 << 1) | 1 ; PG, WP, MP, PE
    mov cr0, eax
    lgdt [boot_gdt_ptr]
    jmp 0x08:long_mode_entry

.no_multiboot:
    mov esi, msg_no_mb
    jmp early_fail
.no_long_mode:
    mov esi, msg_no_lm
    jmp early_fail
.no_nx:
    mov esi, msg_no_nx
    ; fall through

; Print the NUL-terminated string at esi on COM1, then power off as a panic.
early_fail:
    mov dx, COM1
.next:
    lodsb
    test al, al
    jz .off
    out dx, al
    jmp .next
.off:
    mov dx, DEBUG_EXIT_PORT
    mov al, EXIT_PANIC
    out dx, al
.hang:
    hlt
    jmp .hang

bits 64
long_mode_entry:
    xor ax, ax
    mov ss, ax
    mov ds, ax
    mov es, ax
    mov rax, higher_half
    jmp rax

section .boot.data progbits alloc write
align 8
boot_gdt:
    dq 0
    dq 0x00af9a000000ffff                       ; 64-bit code, DPL 0
boot_gdt_ptr:
    dw boot_gdt_ptr - boot_gdt - 1
    dd boot_gdt
msg_no_mb: db "foliOS: not started by a Multiboot2 loader", 10, 0
msg_no_lm: db "foliOS: this CPU has no long mode", 10, 0
msg_no_nx: db "foliOS: this CPU has no NX bit", 10, 0

section .boot.bss nobits alloc write
align 4096
global boot_pml4
boot_pml4:      resb 4096
boot_pdpt_lo:   resb 4096
boot_pdpt_hi:   resb 4096
boot_pd:        resb 4096
boot_stack32:   resb 256
boot_stack32_top:

section .text
bits 64
extern kmain
higher_half:
    mov rsp, boot_stack_top
    xor ebp, ebp                                ; ends frame-pointer backtraces
    call kmain                                  ; (magic in edi, info in esi)
.halt:
    cli
    hlt
    jmp .halt

section .bss
align 4096
global boot_stack_guard, boot_stack, boot_stack_top
boot_stack_guard: resb 4096                     ; left unmapped by mmu_init()
boot_stack:     resb 16384
boot_stack_top:
