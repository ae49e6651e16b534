#pragma once

// Admission of HTTP requests to one engine. An HttpJob asks its gate
// before every attempt and tells it how the attempt ended; the gate decides when the next
// request may go out. The scheduler in core/service implements it per engine and adapts the
// number in flight to what the provider says (429/529, retry-after, rate-limit headers).
//
// Both sides live on one thread. `go` runs at once (inside acquire()) or later from the event
// loop, with the ticket it belongs to; it is never run after release() for its ticket. A
// ticket is released exactly once: with the attempt's outcome once it was sent, or withdrawn
// (cancelled) while it still waited or while it was in flight.

#include "core/engines/retrypolicy.h"

#include <QtGlobal>

#include <functional>

namespace Callscope {

struct GateFeedback
{
    int httpStatus = 0; // 0: no HTTP status (transport failure, timeout, cancel)
    HttpHeaderList headers; // response headers of the attempt
    bool withdrawn = false; // never sent (cancelled while waiting) or cancelled mid-way
};

class RequestGate
{
public:
    using Ticket = quint64;
    virtual ~RequestGate() = default;

    virtual Ticket acquire(std::function<void(Ticket)> go) = 0;
    virtual void release(Ticket ticket, const GateFeedback &feedback) = 0;
};

} // namespace Callscope
