"""What mobile chess tells the apps above it, which it never imports (operations counts these for
/metrics). Each is sent with send_robust, so a receiver that fails never fails the work it reports.
"""

from django.dispatch import Signal

# An inbound message from a player on `channel` (before any check: floods and duplicates count too).
message_received = Signal()
# Outbound messages tried on their channels: `counts`, {(channel, result): n} with result "sent",
# "failed" (given up), "retry" (a passing failure) or "held" (over the address's rate limit).
messages_delivered = Signal()
# Time claims: `event` "filed" (by the clock), "upheld" or "dismissed" (the TD's decision).
claim_event = Signal()
