// SPDX-License-Identifier: GPL-2.0
/*
 * Counter snapshots taken at idle entry and exit. Which counters exist is
 * decided once per configuration by actually reading each MSR on the measured
 * CPU: a CPU model table would be guesswork, and a virtual machine may lack
 * MSRs its CPUID claims. A counter that cannot be read is reported absent,
 * never as zero.
 */
#include <linux/cpumask.h>
#include <asm/cpufeature.h>
#include <asm/hardirq.h>
#include <asm/msr.h>
#include <asm/msr-index.h>
#include <asm/processor.h>
#include "wultfw_ctrs.h"

/* C-state residency and SMI MSRs: Intel-only addresses. */
static const u32 wultfw_intel_msrs[WULTFW_NR_CTRS] = {
	[WULTFW_CTR_SMI] = MSR_SMI_COUNT,
	[WULTFW_CTR_CC1] = MSR_CORE_C1_RES,
	[WULTFW_CTR_CC3] = MSR_CORE_C3_RESIDENCY,
	[WULTFW_CTR_CC6] = MSR_CORE_C6_RESIDENCY,
	[WULTFW_CTR_CC7] = MSR_CORE_C7_RESIDENCY,
	[WULTFW_CTR_MC6] = MSR_MODULE_C6_RES_MS,
	[WULTFW_CTR_PC2] = MSR_PKG_C2_RESIDENCY,
	[WULTFW_CTR_PC3] = MSR_PKG_C3_RESIDENCY,
	[WULTFW_CTR_PC6] = MSR_PKG_C6_RESIDENCY,
	[WULTFW_CTR_PC7] = MSR_PKG_C7_RESIDENCY,
	[WULTFW_CTR_PC8] = MSR_PKG_C8_RESIDENCY,
	[WULTFW_CTR_PC9] = MSR_PKG_C9_RESIDENCY,
	[WULTFW_CTR_PC10] = MSR_PKG_C10_RESIDENCY,
};

void wultfw_ctrs_probe(struct wultfw_ctrs *ctrs, unsigned int cpu)
{
	bool intel = boot_cpu_data.x86_vendor == X86_VENDOR_INTEL;
	u32 lo, hi;
	int i;

	memset(ctrs, 0, sizeof(*ctrs));
	ctrs->present = BIT(WULTFW_CTR_NMI);
	if (boot_cpu_has(X86_FEATURE_TSC))
		ctrs->present |= BIT(WULTFW_CTR_TSC);
	if (boot_cpu_has(X86_FEATURE_APERFMPERF)) {
		ctrs->msr[WULTFW_CTR_APERF] = MSR_IA32_APERF;
		ctrs->msr[WULTFW_CTR_MPERF] = MSR_IA32_MPERF;
	}
	if (intel) {
		for (i = 0; i < WULTFW_NR_CTRS; i++)
			if (wultfw_intel_msrs[i])
				ctrs->msr[i] = wultfw_intel_msrs[i];
	}
	for (i = 0; i < WULTFW_NR_CTRS; i++) {
		if (!ctrs->msr[i])
			continue;
		if (rdmsr_safe_on_cpu(cpu, ctrs->msr[i], &lo, &hi))
			ctrs->msr[i] = 0;	/* faults here: absent */
		else
			ctrs->present |= BIT(i);
	}
}

void wultfw_ctrs_read(const struct wultfw_ctrs *ctrs, u64 *vals)
{
	int i;

	for (i = 0; i < WULTFW_NR_CTRS; i++) {
		vals[i] = 0;
		if (!(ctrs->present & BIT(i)))
			continue;
		if (i == WULTFW_CTR_TSC)
			vals[i] = rdtsc_ordered();
		else if (i == WULTFW_CTR_NMI)
			vals[i] = this_cpu_read(irq_stat.__nmi_count);
		else if (rdmsrl_safe(ctrs->msr[i], &vals[i]))
			vals[i] = 0;	/* cannot happen after a good probe */
	}
}
