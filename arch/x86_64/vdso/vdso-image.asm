; The vDSO as the kernel carries it (Linux's vdso-image-64.c): the linked
; linux-vdso.so.1, page-aligned so that each of its pages can be mapped
; into a process as it is, zero-padded to a whole page.  The Makefile
; builds the image first and passes its directory with -i.
section .rodata.vdso progbits alloc noexec nowrite align=4096
global vdso_image_start, vdso_image_end
vdso_image_start:
	incbin "vdso.so"
	align 4096, db 0
vdso_image_end:
