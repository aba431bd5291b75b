// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "jsonparser.h"

#include "fieldpath.h"
#include "yamlparser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QSet>

#include <algorithm>

namespace converge {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The offset of the first bracket deeper than maxDepth, or -1.
qsizetype tooDeep(const QByteArray &text, int maxDepth)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return -1;
}

// Walks text that QJsonDocument accepted, recording positions. It trusts the text to be valid
// JSON whose depth was checked, so it recurses and does not check syntax.
class Walker final
{
public:
    Walker(const TextLocator &text, SourceMap &map, QList<ManifestError> &errors)
        : m_locator(text)
        , m_text(text.text())
        , m_map(map)
        , m_errors(errors)
    {}

    void document()
    {
        skipSpace();
        m_map.setRootPos(pos());
        value(SourceMap::root, QString());
    }

private:
    TextPos pos() const { return {m_line, int(m_i - m_lineStart), m_i}; }

    char peek() const { return m_i < m_text.size() ? m_text.at(m_i) : '\0'; }

    void skipSpace()
    {
        while (m_i < m_text.size() && isSpace(m_text.at(m_i))) {
            if (m_text.at(m_i) == '\n') {
                ++m_line;
                m_lineStart = m_i + 1;
            }
            ++m_i;
        }
    }

    void value(int node, const QString &path)
    {
        const char c = peek();
        if (c == '{')
            object(node, path);
        else if (c == '[')
            array(node, path);
        else if (c == '"')
            string(path);
        else
            while (m_i < m_text.size() && !isSpace(peek()) && peek() != ',' && peek() != ']' &&
                   peek() != '}')
                ++m_i;
    }

    void object(int node, const QString &path)
    {
        ++m_i; // {
        skipSpace();
        if (peek() == '}') {
            ++m_i;
            return;
        }
        QSet<QString> seen;
        while (m_i < m_text.size()) {
            skipSpace();
            const TextPos keyPos = pos();
            const QString key = string(path);
            skipSpace();
            ++m_i; // :
            skipSpace();
            const TextPos valuePos = pos();
            const QString childPath = FieldPath::child(path, key);
            int child = -1;
            if (seen.contains(key)) {
                const TextPos first = m_map.keyPos(m_map.child(node, key));
                error(keyPos, childPath,
                      QStringLiteral("duplicate key (first at %1)")
                          .arg(m_locator.location(first).toString()));
                child = m_map.addDetached(valuePos);
            } else {
                seen.insert(key);
                child = m_map.addKey(node, key, keyPos, valuePos);
            }
            value(child, childPath);
            skipSpace();
            if (peek() == ',') {
                ++m_i;
                continue;
            }
            ++m_i; // }
            return;
        }
    }

    void array(int node, const QString &path)
    {
        ++m_i; // [
        skipSpace();
        if (peek() == ']') {
            ++m_i;
            return;
        }
        qsizetype index = 0;
        while (m_i < m_text.size()) {
            skipSpace();
            const int child = m_map.addItem(node, index, pos());
            value(child, FieldPath::index(path, index));
            ++index;
            skipSpace();
            if (peek() == ',') {
                ++m_i;
                continue;
            }
            ++m_i; // ]
            return;
        }
    }

    // Reads a string token and decodes it the way QJsonDocument does (keys must match). A
    // \u escape may leave half a surrogate pair, which no text (and no YAML) can hold.
    QString string(const QString &path)
    {
        const TextPos start = pos();
        const QString text = decodeString();
        if (!text.isValidUtf16())
            error(start, path, QStringLiteral("a \\u escape leaves an unpaired UTF-16 surrogate"));
        return text;
    }

    void error(const TextPos &pos, const QString &path, const QString &message)
    {
        if (m_errors.size() < ParsedText::maxErrors)
            m_errors.append(ManifestError{m_locator.location(pos), path, message});
    }

    QString decodeString()
    {
        ++m_i; // "
        const qsizetype start = m_i;
        bool escaped = false;
        while (m_i < m_text.size() && m_text.at(m_i) != '"') {
            if (m_text.at(m_i) == '\\') {
                escaped = true;
                ++m_i;
            }
            ++m_i;
        }
        const QByteArray raw = m_text.mid(start, m_i - start);
        ++m_i; // "
        if (!escaped)
            return QString::fromUtf8(raw);
        QString out;
        qsizetype runStart = 0;
        for (qsizetype k = 0; k < raw.size(); ++k) {
            if (raw.at(k) != '\\')
                continue;
            out += QString::fromUtf8(raw.mid(runStart, k - runStart));
            const char e = raw.at(++k);
            switch (e) {
            case 'b':
                out += QLatin1Char('\b');
                break;
            case 'f':
                out += QLatin1Char('\f');
                break;
            case 'n':
                out += QLatin1Char('\n');
                break;
            case 'r':
                out += QLatin1Char('\r');
                break;
            case 't':
                out += QLatin1Char('\t');
                break;
            case 'u':
                // UTF-16 code units, surrogates included: QString is UTF-16 too.
                out += QChar(char16_t(raw.mid(k + 1, 4).toUShort(nullptr, 16)));
                k += 4;
                break;
            default: // " \ /
                out += QLatin1Char(e);
                break;
            }
            runStart = k + 1;
        }
        out += QString::fromUtf8(raw.mid(runStart));
        return out;
    }

    const TextLocator &m_locator;
    const QByteArray &m_text;
    SourceMap &m_map;
    QList<ManifestError> &m_errors;
    qsizetype m_i = 0;
    int m_line = 0;
    qsizetype m_lineStart = 0;
};

} // namespace

ParsedText JsonParser::parse(const TextLocator &text, int maxDepth)
{
    ParsedText out;
    const QByteArray &data = text.text();
    if (std::all_of(data.cbegin(), data.cend(), isSpace))
        return out;
    if (const qsizetype deep = tooDeep(data, maxDepth); deep >= 0) {
        out.errors.append(
            ManifestError{text.location(deep), {}, YamlParser::depthMessage(maxDepth)});
        return out;
    }
    QJsonParseError error;
    const QJsonDocument json = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError) {
        const qsizetype start =
            std::find_if_not(data.cbegin(), data.cend(), isSpace) - data.cbegin();
        if (data.at(start) != '{' && data.at(start) != '[') {
            // QJsonDocument takes only objects and arrays: say what the top level is instead.
            QJsonParseError wrappedError;
            const QJsonDocument wrapped = QJsonDocument::fromJson('[' + data + ']', &wrappedError);
            if (wrappedError.error == QJsonParseError::NoError) {
                out.documents.append(ParsedDocument{wrapped.array().first(), {}});
                out.documents.first().sourceMap.setRootPos(text.position(start));
                return out;
            }
        }
        // Qt's offset is just past the token it stumbled on (or past the blanks after it).
        qsizetype offset = std::max<qsizetype>(0, error.offset - 1);
        while (offset < data.size() && isSpace(data.at(offset)))
            ++offset;
        out.errors.append(ManifestError{
            text.location(offset), {}, QStringLiteral("invalid JSON: ") + error.errorString()});
        return out;
    }
    ParsedDocument document;
    document.root = json.isObject() ? QJsonValue(json.object()) : QJsonValue(json.array());
    Walker walker(text, document.sourceMap, out.errors);
    walker.document();
    if (out.errors.isEmpty())
        out.documents.append(document);
    return out;
}

} // namespace converge
