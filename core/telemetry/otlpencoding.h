#pragma once

// ExportTraceServiceRequest (opentelemetry-proto, collector/trace/v1) encoded by hand in its
// two OTLP/HTTP forms, so no protobuf library is needed:
//  - protobuf (application/x-protobuf): the proto3 wire format, fields in number order;
//  - JSON (application/json): the OTLP JSON mapping: lowerCamelCase keys, trace and span ids
//    as lowercase hex, enums as integers, 64-bit integers (times, intValue) as strings.
// One request carries one resource and one instrumentation scope.
// Also reads the ExportTraceServiceResponse's partial success in either form, and gzips a
// body for `Content-Encoding: gzip`.

#include "core/telemetry/span.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace Callscope::Telemetry {

struct ExportScope
{
    Attributes resource; // service.name, ...
    QString scopeName;
    QString scopeVersion;
    QString schemaUrl; // of the semantic conventions the spans follow
};

QByteArray encodeTracesProtobuf(const ExportScope &scope, const QList<Span> &spans);
QByteArray encodeTracesJson(const ExportScope &scope, const QList<Span> &spans);

// `data` as one gzip member (RFC 1952: header, raw deflate, CRC-32 and size), what a collector
// expects under `Content-Encoding: gzip`. Not qCompress(), whose output is zlib format behind
// a 4-byte length. Empty only when zlib fails.
QByteArray gzipCompress(const QByteArray &data);

struct PartialSuccess
{
    qint64 rejectedSpans = 0;
    QString errorMessage;
};

// The partial_success of a response body (protobuf or JSON); nullopt when the body has none
// (an empty body is a full success) or cannot be read.
std::optional<PartialSuccess> readPartialSuccess(const QByteArray &body, bool json);

} // namespace Callscope::Telemetry
