#pragma once

// Checks of the JSON Schema "format" values that Callscope can assert (RFC 3339 dates and
// times, durations, e-mail addresses, host names, IP addresses, URIs, UUIDs).

#include <QStringView>

namespace Callscope::SchemaFormats {

enum class Format {
    Unknown,
    DateTime,
    Date,
    Time,
    Duration,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Uri,
    Uuid,
    HostnameRfc1123, // drafts 4 and 6: RFC 1123 labels, without the IDNA rules
};

Format fromName(QStringView name);
// True when `value` is a valid instance of `format` (always true for Format::Unknown).
bool check(Format format, QStringView value);

bool isDateTime(QStringView value);
bool isDate(QStringView value);
bool isTime(QStringView value);
bool isDuration(QStringView value);
bool isEmail(QStringView value);
bool isHostname(QStringView value);
bool isHostnameRfc1123(QStringView value);
bool isIpv4(QStringView value);
bool isIpv6(QStringView value);
bool isUri(QStringView value);
bool isUuid(QStringView value);

} // namespace Callscope::SchemaFormats
