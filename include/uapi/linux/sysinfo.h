/* sysinfo(2)'s record, x86-64 layout (linux/sysinfo.h). */
#ifndef _UAPI_LINUX_SYSINFO_H
#define _UAPI_LINUX_SYSINFO_H

struct sysinfo {
	long uptime;
	unsigned long loads[3];
	unsigned long totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	unsigned short procs, pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;
	char _f[4];
};

#endif
