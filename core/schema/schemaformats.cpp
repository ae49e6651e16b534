#include "core/schema/schemaformats.h"

#include <QChar>
#include <QList>
#include <QString>

using namespace Qt::StringLiterals;

namespace Callscope::SchemaFormats {

namespace {

bool isAsciiDigit(QChar c)
{
    return c.unicode() >= '0' && c.unicode() <= '9';
}

bool isAsciiAlpha(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
}

bool isHexDigit(QChar c)
{
    const char16_t u = c.unicode();
    return isAsciiDigit(c) || (u >= 'a' && u <= 'f') || (u >= 'A' && u <= 'F');
}

// Reads exactly `count` ASCII digits at `pos`; -1 when they are not there.
int digits(QStringView text, qsizetype pos, int count)
{
    if (pos + count > text.size())
        return -1;
    int value = 0;
    for (int i = 0; i < count; ++i) {
        const QChar c = text.at(pos + i);
        if (!isAsciiDigit(c))
            return -1;
        value = value * 10 + (c.unicode() - '0');
    }
    return value;
}

bool isLeapYear(int year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int daysInMonth(int year, int month)
{
    static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (month == 2 && isLeapYear(year))
        return 29;
    return days[month - 1];
}

// ---- IDNA (RFC 5890-5893) for "xn--" labels

bool punycodeDecode(QStringView input, QList<char32_t> *output)
{
    constexpr int base = 36, tmin = 1, tmax = 26, skew = 38, damp = 700;
    quint64 n = 128;
    quint64 i = 0;
    int bias = 72;
    const qsizetype delimiter = input.lastIndexOf(u'-');
    if (delimiter > 0) {
        for (qsizetype k = 0; k < delimiter; ++k) {
            if (input.at(k).unicode() >= 0x80)
                return false;
            output->append(input.at(k).unicode());
        }
    }
    qsizetype pos = delimiter > 0 ? delimiter + 1 : 0;
    if (pos >= input.size() && delimiter >= 0)
        return false; // nothing encoded
    auto adapt = [&](quint64 delta, quint64 points, bool first) {
        delta = first ? delta / damp : delta / 2;
        delta += delta / points;
        int k = 0;
        while (delta > ((base - tmin) * tmax) / 2) {
            delta /= base - tmin;
            k += base;
        }
        return int(k + (base - tmin + 1) * delta / (delta + skew));
    };
    while (pos < input.size()) {
        const quint64 oldi = i;
        quint64 w = 1;
        for (int k = base;; k += base) {
            if (pos >= input.size())
                return false;
            const char16_t c = input.at(pos++).unicode();
            int digit;
            if (c >= '0' && c <= '9')
                digit = c - '0' + 26;
            else if (c >= 'a' && c <= 'z')
                digit = c - 'a';
            else if (c >= 'A' && c <= 'Z')
                digit = c - 'A';
            else
                return false;
            i += quint64(digit) * w;
            if (i > 0x7fffffff)
                return false;
            const int t = k <= bias ? tmin : (k >= bias + tmax ? tmax : k - bias);
            if (digit < t)
                break;
            w *= quint64(base - t);
        }
        const quint64 points = quint64(output->size()) + 1;
        bias = adapt(i - oldi, points, oldi == 0);
        n += i / points;
        i %= points;
        if (n > 0x10ffff)
            return false;
        output->insert(qsizetype(i), char32_t(n));
        ++i;
    }
    return true;
}

bool inRange(char32_t c, char32_t low, char32_t high)
{
    return c >= low && c <= high;
}

bool isGreek(char32_t c)
{
    return inRange(c, 0x370, 0x3ff) || inRange(c, 0x1f00, 0x1fff);
}

bool isHebrew(char32_t c)
{
    return inRange(c, 0x591, 0x5f4) || inRange(c, 0xfb1d, 0xfb4f);
}

bool isJapaneseOrHan(char32_t c)
{
    return (inRange(c, 0x3040, 0x309f) || inRange(c, 0x30a0, 0x30ff) || inRange(c, 0x4e00, 0x9fff)
            || inRange(c, 0x3400, 0x4dbf) || inRange(c, 0x20000, 0x2a6df)
            || inRange(c, 0xf900, 0xfaff) || c == 0x3005 || c == 0x3007
            || inRange(c, 0x3021, 0x3029) || inRange(c, 0x3038, 0x303b))
        && c != 0x30fb;
}

bool isMark(char32_t c)
{
    const QChar::Category category = QChar::category(c);
    return category == QChar::Mark_NonSpacing || category == QChar::Mark_SpacingCombining
        || category == QChar::Mark_Enclosing;
}

bool isVirama(char32_t c)
{
    return QChar::combiningClass(c) == 9;
}

// Dual- or left/right-joining letters (Arabic, Syriac, N'Ko ranges), for ZWNJ.
bool isJoiningLetter(char32_t c)
{
    return (inRange(c, 0x620, 0x64a) || inRange(c, 0x66e, 0x6d3) || inRange(c, 0x6fa, 0x6ff)
            || inRange(c, 0x710, 0x74f) || inRange(c, 0x7ca, 0x7ea) || inRange(c, 0xa840, 0xa872))
        && QChar::category(c) == QChar::Letter_Other;
}

bool idnaLabelValid(const QList<char32_t> &label)
{
    if (label.isEmpty())
        return false;
    if (isMark(label.first()))
        return false;
    if (label.size() >= 4 && label[2] == u'-' && label[3] == u'-')
        return false;
    bool arabicIndic = false, extendedArabicIndic = false;
    for (qsizetype i = 0; i < label.size(); ++i) {
        const char32_t c = label[i];
        const char32_t before = i > 0 ? label[i - 1] : 0;
        const char32_t after = i + 1 < label.size() ? label[i + 1] : 0;
        if (c < 0x80) {
            if (!(isAsciiAlpha(QChar(c)) && QChar(c).isLower()) && !isAsciiDigit(QChar(c))
                && c != u'-')
                return false;
            continue;
        }
        // DISALLOWED exceptions and characters that never appear in host names.
        if (c == 0x640 || c == 0x7fa || c == 0x302e || c == 0x302f || inRange(c, 0x3031, 0x3035)
            || c == 0x303b)
            return false;
        const bool contextual = c == 0xb7 || c == 0x375 || c == 0x5f3 || c == 0x5f4 || c == 0x30fb
            || c == 0x200c
            || c == 0x200d
            // PVALID exceptions of RFC 5892 section 2.6
            || c == 0xdf || c == 0x3c2 || c == 0x6fd || c == 0x6fe || c == 0xf0b || c == 0x3007;
        switch (QChar::category(c)) {
        case QChar::Letter_Uppercase:
        case QChar::Letter_Titlecase:
        case QChar::Separator_Space:
        case QChar::Separator_Line:
        case QChar::Separator_Paragraph:
        case QChar::Other_Control:
        case QChar::Other_NotAssigned:
        case QChar::Other_Format:
        case QChar::Other_Surrogate:
        case QChar::Other_PrivateUse:
        case QChar::Punctuation_Other:
        case QChar::Symbol_Math:
        case QChar::Symbol_Other:
            if (!contextual)
                return false;
            break;
        default:
            break;
        }
        switch (c) {
        case 0xb7: // MIDDLE DOT: between two 'l'
            if (before != u'l' || after != u'l')
                return false;
            break;
        case 0x375: // GREEK KERAIA: followed by Greek
            if (!isGreek(after))
                return false;
            break;
        case 0x5f3:
        case 0x5f4: // HEBREW GERESH / GERSHAYIM: preceded by Hebrew
            if (!isHebrew(before))
                return false;
            break;
        case 0x30fb: { // KATAKANA MIDDLE DOT: some Hiragana, Katakana or Han in the label
            bool found = false;
            for (char32_t other : label)
                found = found || isJapaneseOrHan(other);
            if (!found)
                return false;
            break;
        }
        case 0x200d: // ZERO WIDTH JOINER: after a virama
            if (!isVirama(before))
                return false;
            break;
        case 0x200c: // ZERO WIDTH NON-JOINER: after a virama, or between joining letters
            if (!isVirama(before)) {
                qsizetype b = i - 1;
                while (b >= 0 && isMark(label[b]))
                    --b;
                qsizetype a = i + 1;
                while (a < label.size() && isMark(label[a]))
                    ++a;
                if (b < 0 || a >= label.size() || !isJoiningLetter(label[b])
                    || !isJoiningLetter(label[a]))
                    return false;
            }
            break;
        default:
            break;
        }
        if (inRange(c, 0x660, 0x669))
            arabicIndic = true;
        if (inRange(c, 0x6f0, 0x6f9))
            extendedArabicIndic = true;
    }
    return !(arabicIndic && extendedArabicIndic);
}

bool isUnreserved(QChar c)
{
    return isAsciiAlpha(c) || isAsciiDigit(c) || c == u'-' || c == u'.' || c == u'_' || c == u'~';
}

bool isSubDelim(QChar c)
{
    switch (c.unicode()) {
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
        return true;
    default:
        return false;
    }
}

// Every character is unreserved, a sub-delimiter, one of `extra`, or a %XX escape.
bool uriChars(QStringView text, QStringView extra)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (isUnreserved(c) || isSubDelim(c) || extra.contains(c))
            continue;
        if (c == u'%') {
            if (i + 2 >= text.size() || !isHexDigit(text.at(i + 1)) || !isHexDigit(text.at(i + 2)))
                return false;
            i += 2;
            continue;
        }
        return false;
    }
    return true;
}

bool timeOfDay(QStringView text, int *minutesUtc, int *second)
{
    // HH:MM:SS[.frac](Z|+HH:MM|-HH:MM)
    const int hour = digits(text, 0, 2);
    const int minute = digits(text, 3, 2);
    const int sec = digits(text, 6, 2);
    if (hour < 0 || minute < 0 || sec < 0 || text.at(2) != u':' || text.at(5) != u':')
        return false;
    if (hour > 23 || minute > 59 || sec > 60)
        return false;
    qsizetype pos = 8;
    if (pos < text.size() && text.at(pos) == u'.') {
        ++pos;
        const qsizetype start = pos;
        while (pos < text.size() && isAsciiDigit(text.at(pos)))
            ++pos;
        if (pos == start)
            return false;
    }
    if (pos >= text.size())
        return false;
    int offset = 0;
    const QChar zone = text.at(pos);
    if (zone == u'Z' || zone == u'z') {
        if (pos + 1 != text.size())
            return false;
    } else if (zone == u'+' || zone == u'-') {
        if (pos + 6 != text.size() || text.at(pos + 3) != u':')
            return false;
        const int oh = digits(text, pos + 1, 2);
        const int om = digits(text, pos + 4, 2);
        if (oh < 0 || om < 0 || oh > 23 || om > 59)
            return false;
        offset = (oh * 60 + om) * (zone == u'+' ? 1 : -1);
    } else {
        return false;
    }
    *minutesUtc = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440;
    *second = sec;
    return true;
}

} // namespace

Format fromName(QStringView name)
{
    if (name == u"date-time")
        return Format::DateTime;
    if (name == u"date")
        return Format::Date;
    if (name == u"time")
        return Format::Time;
    if (name == u"duration")
        return Format::Duration;
    if (name == u"email")
        return Format::Email;
    if (name == u"hostname")
        return Format::Hostname;
    if (name == u"ipv4")
        return Format::Ipv4;
    if (name == u"ipv6")
        return Format::Ipv6;
    if (name == u"uri")
        return Format::Uri;
    if (name == u"uuid")
        return Format::Uuid;
    return Format::Unknown;
}

bool check(Format format, QStringView value)
{
    switch (format) {
    case Format::Unknown:
        return true;
    case Format::DateTime:
        return isDateTime(value);
    case Format::Date:
        return isDate(value);
    case Format::Time:
        return isTime(value);
    case Format::Duration:
        return isDuration(value);
    case Format::Email:
        return isEmail(value);
    case Format::Hostname:
        return isHostname(value);
    case Format::HostnameRfc1123:
        return isHostnameRfc1123(value);
    case Format::Ipv4:
        return isIpv4(value);
    case Format::Ipv6:
        return isIpv6(value);
    case Format::Uri:
        return isUri(value);
    case Format::Uuid:
        return isUuid(value);
    }
    return true;
}

bool isDate(QStringView value)
{
    if (value.size() != 10 || value.at(4) != u'-' || value.at(7) != u'-')
        return false;
    const int year = digits(value, 0, 4);
    const int month = digits(value, 5, 2);
    const int day = digits(value, 8, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1)
        return false;
    return day <= daysInMonth(year, month);
}

bool isTime(QStringView value)
{
    int minutes = 0, second = 0;
    if (value.size() < 9 || !timeOfDay(value, &minutes, &second))
        return false;
    return second < 60 || minutes == 23 * 60 + 59;
}

bool isDateTime(QStringView value)
{
    if (value.size() < 20 || (value.at(10) != u'T' && value.at(10) != u't'))
        return false;
    return isDate(value.left(10)) && isTime(value.mid(11));
}

bool isDuration(QStringView value)
{
    if (value.size() < 2 || value.at(0) != u'P')
        return false;
    QString dateUnits, timeUnits;
    bool inTime = false;
    qsizetype pos = 1;
    while (pos < value.size()) {
        if (value.at(pos) == u'T') {
            if (inTime)
                return false;
            inTime = true;
            ++pos;
            continue;
        }
        const qsizetype start = pos;
        while (pos < value.size() && isAsciiDigit(value.at(pos)))
            ++pos;
        if (pos == start || pos >= value.size())
            return false;
        (inTime ? timeUnits : dateUnits) += value.at(pos);
        ++pos;
    }
    static const QStringList dateForms { u""_s,  u"D"_s,  u"M"_s,   u"MD"_s,
                                         u"Y"_s, u"YM"_s, u"YMD"_s, u"W"_s };
    static const QStringList timeForms { u"H"_s, u"HM"_s, u"HMS"_s, u"M"_s, u"MS"_s, u"S"_s };
    if (!dateForms.contains(dateUnits))
        return false;
    if (inTime && !timeForms.contains(timeUnits))
        return false;
    if (dateUnits == u"W" && inTime)
        return false;
    return !dateUnits.isEmpty() || inTime;
}

bool isIpv4(QStringView value)
{
    const auto parts = value.split(u'.');
    if (parts.size() != 4)
        return false;
    for (QStringView part : parts) {
        if (part.isEmpty() || part.size() > 3)
            return false;
        for (QChar c : part) {
            if (!isAsciiDigit(c))
                return false;
        }
        if (part.size() > 1 && part.at(0) == u'0')
            return false;
        if (part.toInt() > 255)
            return false;
    }
    return true;
}

bool isIpv6(QStringView value)
{
    if (value.isEmpty())
        return false;
    const qsizetype gap = value.indexOf(u"::");
    if (gap >= 0 && value.indexOf(u"::", gap + 1) >= 0)
        return false;
    auto groups = [](QStringView side, bool last, int *count) {
        *count = 0;
        if (side.isEmpty())
            return true;
        const auto parts = side.split(u':');
        for (qsizetype i = 0; i < parts.size(); ++i) {
            const QStringView part = parts.at(i);
            if (last && i + 1 == parts.size() && part.contains(u'.')) {
                if (!isIpv4(part))
                    return false;
                *count += 2;
                continue;
            }
            if (part.isEmpty() || part.size() > 4)
                return false;
            for (QChar c : part) {
                if (!isHexDigit(c))
                    return false;
            }
            *count += 1;
        }
        return true;
    };
    int left = 0, right = 0;
    if (gap < 0) {
        if (!groups(value, true, &left))
            return false;
        return left == 8;
    }
    if (!groups(value.left(gap), false, &left) || !groups(value.mid(gap + 2), true, &right))
        return false;
    return left + right <= 7;
}

bool isHostnameRfc1123(QStringView value)
{
    if (value.isEmpty() || value.size() > 253)
        return false;
    const auto labels = value.split(u'.');
    for (QStringView label : labels) {
        if (label.isEmpty() || label.size() > 63)
            return false;
        if (label.startsWith(u'-') || label.endsWith(u'-'))
            return false;
        for (QChar c : label) {
            if (!isAsciiAlpha(c) && !isAsciiDigit(c) && c != u'-')
                return false;
        }
    }
    return true;
}

bool isHostname(QStringView value)
{
    if (!isHostnameRfc1123(value))
        return false;
    const auto labels = value.split(u'.');
    for (QStringView label : labels) {
        const bool aLabel =
            label.size() >= 4 && label.left(4).compare(u"xn--", Qt::CaseInsensitive) == 0;
        if (aLabel) {
            QList<char32_t> decoded;
            if (!punycodeDecode(label.mid(4), &decoded) || !idnaLabelValid(decoded))
                return false;
        } else if (label.size() >= 4 && label.at(2) == u'-' && label.at(3) == u'-') {
            return false; // reserved for other ACE prefixes
        }
    }
    return true;
}

bool isEmail(QStringView value)
{
    const qsizetype at = value.lastIndexOf(u'@');
    if (at <= 0 || at + 1 >= value.size())
        return false;
    const QStringView local = value.left(at);
    const QStringView domain = value.mid(at + 1);
    if (local.startsWith(u'"')) {
        if (local.size() < 2 || !local.endsWith(u'"'))
            return false;
        for (qsizetype i = 1; i + 1 < local.size(); ++i) {
            const char16_t c = local.at(i).unicode();
            if (c == '\\') {
                ++i;
                if (i + 1 >= local.size())
                    return false;
                continue;
            }
            if (c == '"' || c < 0x20 || c > 0x7e)
                return false;
        }
    } else {
        if (local.startsWith(u'.') || local.endsWith(u'.') || local.contains(u".."))
            return false;
        static const QString atext = u"!#$%&'*+-/=?^_`{|}~."_s;
        for (QChar c : local) {
            if (!isAsciiAlpha(c) && !isAsciiDigit(c) && !atext.contains(c))
                return false;
        }
    }
    if (domain.startsWith(u'[')) {
        if (!domain.endsWith(u']'))
            return false;
        const QStringView literal = domain.mid(1, domain.size() - 2);
        if (literal.startsWith(u"IPv6:", Qt::CaseInsensitive))
            return isIpv6(literal.mid(5));
        return isIpv4(literal);
    }
    return isHostname(domain);
}

bool isUri(QStringView value)
{
    // scheme
    if (value.isEmpty() || !isAsciiAlpha(value.at(0)))
        return false;
    qsizetype pos = 1;
    while (pos < value.size()) {
        const QChar c = value.at(pos);
        if (isAsciiAlpha(c) || isAsciiDigit(c) || c == u'+' || c == u'-' || c == u'.') {
            ++pos;
            continue;
        }
        break;
    }
    if (pos >= value.size() || value.at(pos) != u':')
        return false;
    QStringView rest = value.mid(pos + 1);

    // fragment, query
    const qsizetype hash = rest.indexOf(u'#');
    if (hash >= 0) {
        if (!uriChars(rest.mid(hash + 1), u":@/?"))
            return false;
        rest = rest.left(hash);
    }
    const qsizetype question = rest.indexOf(u'?');
    if (question >= 0) {
        if (!uriChars(rest.mid(question + 1), u":@/?"))
            return false;
        rest = rest.left(question);
    }

    // authority
    if (rest.startsWith(u"//")) {
        rest = rest.mid(2);
        const qsizetype slash = rest.indexOf(u'/');
        QStringView authority = slash >= 0 ? rest.left(slash) : rest;
        rest = slash >= 0 ? rest.mid(slash) : QStringView();
        const qsizetype atSign = authority.indexOf(u'@');
        if (atSign >= 0) {
            if (!uriChars(authority.left(atSign), u":"))
                return false;
            authority = authority.mid(atSign + 1);
        }
        QStringView port;
        if (authority.startsWith(u'[')) {
            const qsizetype close = authority.indexOf(u']');
            if (close < 0)
                return false;
            const QStringView literal = authority.mid(1, close - 1);
            if (literal.startsWith(u'v') || literal.startsWith(u'V')) {
                if (!uriChars(literal.mid(1), u":"))
                    return false;
            } else if (!isIpv6(literal)) {
                return false;
            }
            const QStringView after = authority.mid(close + 1);
            if (!after.isEmpty()) {
                if (!after.startsWith(u':'))
                    return false;
                port = after.mid(1);
            }
        } else {
            const qsizetype colon = authority.lastIndexOf(u':');
            QStringView host = authority;
            if (colon >= 0) {
                port = authority.mid(colon + 1);
                host = authority.left(colon);
            }
            if (!uriChars(host, {}))
                return false;
        }
        for (QChar c : port) {
            if (!isAsciiDigit(c))
                return false;
        }
    }
    // path
    return uriChars(rest, u":@/");
}

bool isUuid(QStringView value)
{
    if (value.size() != 36)
        return false;
    for (qsizetype i = 0; i < value.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? value.at(i) != u'-' : !isHexDigit(value.at(i)))
            return false;
    }
    return true;
}

} // namespace Callscope::SchemaFormats
