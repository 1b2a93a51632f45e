/*
 * The OOM killer's user-visible ranges (Linux's include/uapi/linux/oom.h):
 * /proc/<pid>/oom_score_adj takes -1000..1000, -1000 meaning "never kill";
 * the legacy /proc/<pid>/oom_adj -16..15, with -17 for "never".
 */
#ifndef _UAPI_LINUX_OOM_H
#define _UAPI_LINUX_OOM_H

#define OOM_SCORE_ADJ_MIN       (-1000)
#define OOM_SCORE_ADJ_MAX       1000

#define OOM_DISABLE             (-17)
#define OOM_ADJUST_MIN          (-16)
#define OOM_ADJUST_MAX          15

#endif
