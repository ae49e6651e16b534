#pragma once

// What a stored call keeps of one HTTP exchange of its tool loop (see TurnExchange): the
// request body with attachments' bytes replaced by a placeholder naming the attachment, cut
// at 1 MiB, and the head of the reply, each with its whole size.

#include "core/engines/modelclient.h"
#include "core/model/callrecord.h"

namespace Callscope {

// `sent` holds the attachments the request carried, with their bytes (its messages' own and
// their tool results' images); `turn` and `attempt` place the exchange in the record.
TurnExchange captureExchange(const ModelOutcome &outcome, const QList<Message> &sent, int turn,
                             int attempt, bool replayed);

// A copy of `body` in which every string that is the base64 of one of `attachments` (bare, or
// as a data: URI) is replaced by "[attachment NAME (TYPE, N bytes) not kept]".
QJsonObject withoutAttachmentData(const QJsonObject &body, const QList<Attachment> &attachments);

// A message in neutral JSON as a request carries it: Callscope's own bookkeeping (the
// provider_data keys that start with "callscope_", which no engine sends) left out.
QJsonObject messageAsSent(const Message &message);

} // namespace Callscope
