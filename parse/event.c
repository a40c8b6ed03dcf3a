/*
 * event: names of event kinds and wake sources, for messages and the
 * native writer.
 */
#include "parse/event.h"

const char *sr_ev_kind_name(enum sr_ev_kind k)
{
	static const char *const names[SR_EV__COUNT] = {
		[SR_EV_SWITCH] = "switch", [SR_EV_WAKING] = "waking",
		[SR_EV_WAKEUP] = "wake", [SR_EV_WAKEUP_NEW] = "wake_new",
		[SR_EV_FORK] = "fork", [SR_EV_EXEC] = "exec",
		[SR_EV_EXIT] = "exit", [SR_EV_FREE] = "free",
		[SR_EV_MIGRATE] = "migrate", [SR_EV_RUNTIME] = "runtime",
		[SR_EV_NICE] = "nice", [SR_EV_SETSCHED] = "policy",
		[SR_EV_LOST] = "lost",
	};
	return (unsigned)k < SR_EV__COUNT ? names[k] : "?";
}

const char *sr_wake_src_name(enum sr_wake_src s)
{
	static const char *const names[] = {
		[SR_WS_TASK] = "task", [SR_WS_HARDIRQ] = "irq",
		[SR_WS_SOFTIRQ] = "softirq", [SR_WS_IDLE] = "idle",
		[SR_WS_UNKNOWN] = "unknown",
	};
	return (unsigned)s <= SR_WS_UNKNOWN ? names[s] : "?";
}
