/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kp_model.ko knows of kp_model_target.ko, the module its sequence
 * loads, probes and unloads.  kp_model.ko takes the functions with
 * symbol_get() after each load: no link-time dependency, so the target
 * can come and go while kp_model.ko runs.
 */
#ifndef KP_MODEL_TARGET_H
#define KP_MODEL_TARGET_H

#define KPMT_NAME	"kp_model_target"

/* Module text with an ftrace site at its entry (where ftrace has them). */
long kpmt_t0(long x);
/* Module text without one (notrace). */
long kpmt_t1(long x);

/*
 * The target's init calls its init-text function kpmt_boot() boot_calls
 * times (a module parameter), then fails if its "fail" parameter is set:
 * kpmt_boot(i) = i * 13 - 4.
 */
#define KPMT_BOOT_SYM	"kpmt_boot"

#endif /* KP_MODEL_TARGET_H */
