// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "yamlparser.h"

#include "fieldpath.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringDecoder>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <istream>
#include <streambuf>
#include <thread>

namespace converge {

namespace {

const std::string standardTagPrefix = "tag:yaml.org,2002:";

// Reads part of a QByteArray in place: manifests can be large, and yaml-cpp wants a stream.
class ByteArrayBuffer final : public std::streambuf
{
public:
    ByteArrayBuffer(const QByteArray &data, qsizetype from, qsizetype to)
    {
        char *begin = const_cast<char *>(data.constData());
        setg(begin + from, begin + from, begin + to);
    }
};

// QString::fromStdString drops a leading U+FEFF; a scalar may well start with one.
QString decodeUtf8(const std::string &utf8)
{
    if (utf8.rfind("\xEF\xBB\xBF", 0) != 0)
        return QString::fromStdString(utf8);
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless |
                                                     QStringDecoder::Flag::ConvertInitialBom);
    return decoder(QByteArrayView(utf8.data(), qsizetype(utf8.size())));
}

/// Where a piece of the text starts (parse() may read a large text in pieces): at a line start.
struct Base
{
    int line = 0;
    qsizetype offset = 0;
};

TextPos toPos(const YAML::Mark &mark, const Base &base)
{
    if (mark.is_null())
        return {};
    return {base.line + mark.line, mark.column, base.offset + mark.pos};
}

QString tagName(const std::string &tag)
{
    if (tag.rfind(standardTagPrefix, 0) == 0)
        return QStringLiteral("!!") + QString::fromStdString(tag.substr(standardTagPrefix.size()));
    return QString::fromStdString(tag);
}

bool isStandardTag(const std::string &tag, const char *name)
{
    return tag == standardTagPrefix + name;
}

bool isNonSpecific(const std::string &tag)
{
    return tag == "?" || tag == "!" || tag.empty();
}

const QRegularExpression &integerPattern()
{
    static const QRegularExpression re(QStringLiteral("^[-+]?[0-9]+$"));
    return re;
}

const QRegularExpression &floatPattern()
{
    static const QRegularExpression re(
        QStringLiteral("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"));
    return re;
}

std::optional<QJsonValue> nullScalar(const QString &text)
{
    if (text.isEmpty() || text == QLatin1String("~") || text == QLatin1String("null") ||
        text == QLatin1String("Null") || text == QLatin1String("NULL"))
        return QJsonValue(QJsonValue::Null);
    return std::nullopt;
}

std::optional<QJsonValue> boolScalar(const QString &text)
{
    if (text == QLatin1String("true") || text == QLatin1String("True") ||
        text == QLatin1String("TRUE"))
        return QJsonValue(true);
    if (text == QLatin1String("false") || text == QLatin1String("False") ||
        text == QLatin1String("FALSE"))
        return QJsonValue(false);
    return std::nullopt;
}

std::optional<QJsonValue> numberScalar(const QString &text, bool allowFloat)
{
    if (integerPattern().match(text).hasMatch()) {
        bool ok = false;
        const qint64 n = text.toLongLong(&ok);
        if (ok)
            return QJsonValue(n);
        // Beyond qint64: a number still, so that an Int field says "out of range".
        return QJsonValue(text.toDouble());
    }
    if (allowFloat && floatPattern().match(text).hasMatch())
        return QJsonValue(text.toDouble());
    return std::nullopt;
}

// Thrown from the event handler to stop yaml-cpp at once.
struct Abort
{
    ManifestError error;
};

// Thrown when enough errors were found.
struct Enough
{};

class Builder final : public YAML::EventHandler
{
public:
    Builder(const TextLocator &text, const Base &base, int maxDepth, ParsedText &out)
        : m_text(text)
        , m_base(base)
        , m_maxDepth(maxDepth)
        , m_out(out)
    {}

    qint64 aliasValues() const { return m_aliasValues; }

    void OnDocumentStart(const YAML::Mark &mark) override
    {
        // yaml-cpp 0.7 reports empty documents forever, never moving on, at a ',' where a
        // document should start: stop on the second document at the same place.
        const qsizetype at = toPos(mark).offset;
        if (at == m_lastDocumentStart) {
            const char c = at < m_text.text().size() ? m_text.text().at(at) : ' ';
            abort(mark, {}, QStringLiteral("invalid YAML: unexpected \"%1\"").arg(QLatin1Char(c)));
        }
        m_lastDocumentStart = at;
        m_stack.clear();
        m_anchors.clear();
        m_document = ParsedDocument{};
        m_hasRoot = false;
    }

    void OnDocumentEnd() override
    {
        if (m_hasRoot && !m_document.root.isNull())
            m_out.documents.append(m_document);
        m_document = ParsedDocument{};
    }

    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        if (expectingKey())
            abort(mark, keyPath(), QStringLiteral("a key must be a string, not null"));
        const TextPos pos = toPos(mark);
        QString path;
        beginNode(pos, &path);
        ++m_values;
        finishNode(QJsonValue(QJsonValue::Null), 0, anchor, 1);
    }

    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        const auto it = m_anchors.constFind(anchor);
        if (it == m_anchors.cend())
            abort(mark, currentPath(),
                  QStringLiteral("an alias cannot refer to a node that contains it"));
        const Anchored anchored = it.value();
        if (expectingKey()) {
            if (!anchored.value.isString())
                abort(mark, keyPath(), QStringLiteral("a key must be a string"));
            acceptKey(anchored.value.toString(), toPos(mark), false);
            return;
        }
        if (m_stack.size() + anchored.height > m_maxDepth)
            abort(mark, {}, depthMessage());
        m_aliasValues += anchored.values;
        if (m_aliasValues > YamlParser::maxAliasValues)
            abort(mark, currentPath(),
                  QStringLiteral("aliases expand to more than %1 values")
                      .arg(YamlParser::maxAliasValues));
        QString path;
        beginNode(toPos(mark), &path);
        m_values += anchored.values;
        finishNode(anchored.value, anchored.height, 0, anchored.values);
    }

    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                  const std::string &value) override
    {
        const TextPos pos = toPos(mark);
        const QString text = decodeUtf8(value);
        if (expectingKey()) {
            if (!isNonSpecific(tag) && !isStandardTag(tag, "str"))
                error(pos, FieldPath::child(m_stack.last().path, text),
                      QStringLiteral("tag %1 is not supported on a key").arg(tagName(tag)));
            acceptKey(text, pos, tag == "?");
            if (anchor)
                m_anchors.insert(anchor, Anchored{QJsonValue(text), 0, 1});
            return;
        }
        QString path;
        beginNode(pos, &path);
        QString message;
        const QJsonValue typed = scalar(tag, text, &message);
        if (!message.isEmpty())
            error(pos, path, message);
        ++m_values;
        finishNode(typed, 0, anchor, 1);
    }

    void OnSequenceStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override
    {
        beginCollection(mark, tag, anchor, false);
    }

    void OnSequenceEnd() override { endCollection(); }

    void OnMapStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override
    {
        beginCollection(mark, tag, anchor, true);
    }

    void OnMapEnd() override { endCollection(); }

private:
    struct Frame
    {
        bool isMap = false;
        QJsonObject object;
        QJsonArray array;
        int node = SourceMap::root;
        QString path;
        YAML::anchor_t anchor = 0;
        qint64 valuesAtStart = 0;
        int height = 0; ///< of the tallest child
        // A mapping between a key and its value:
        bool haveKey = false;
        bool dropValue = false; ///< the key was refused; its value is parsed and dropped
        QString key;
        TextPos keyPos;
    };

    struct Anchored
    {
        QJsonValue value;
        int height = 0;
        qint64 values = 0;
    };

    QString depthMessage() const { return YamlParser::depthMessage(m_maxDepth); }
    TextPos toPos(const YAML::Mark &mark) const { return converge::toPos(mark, m_base); }

    bool expectingKey() const
    {
        return !m_stack.isEmpty() && m_stack.last().isMap && !m_stack.last().haveKey;
    }

    // The path of the node about to start.
    QString currentPath() const
    {
        if (m_stack.isEmpty())
            return {};
        const Frame &parent = m_stack.last();
        if (parent.isMap)
            return parent.haveKey ? FieldPath::child(parent.path, parent.key) : parent.path;
        return FieldPath::index(parent.path, parent.array.size());
    }

    QString keyPath() const { return m_stack.isEmpty() ? QString() : m_stack.last().path; }

    [[noreturn]] void abort(const YAML::Mark &mark, const QString &path, const QString &message)
    {
        throw Abort{ManifestError{m_text.location(toPos(mark)), path, message}};
    }

    void error(const TextPos &pos, const QString &path, const QString &message)
    {
        m_out.errors.append(ManifestError{m_text.location(pos), path, message});
        if (m_out.errors.size() >= ParsedText::maxErrors)
            throw Enough{};
    }

    void acceptKey(const QString &key, const TextPos &pos, bool plain)
    {
        Frame &frame = m_stack.last();
        frame.haveKey = true;
        frame.dropValue = false;
        frame.key = key;
        frame.keyPos = pos;
        const QString path = FieldPath::child(frame.path, key);
        if (plain && key == QLatin1String("<<")) {
            error(pos, frame.path, QStringLiteral("merge keys (<<) are not supported"));
            frame.dropValue = true;
            return;
        }
        const int first = m_document.sourceMap.child(frame.node, key);
        if (first >= 0) {
            error(pos, path,
                  QStringLiteral("duplicate key (first at %1)")
                      .arg(m_text.location(m_document.sourceMap.keyPos(first)).toString()));
            frame.dropValue = true;
        }
    }

    // Registers the node about to be read in the source map; returns its source map node.
    int beginNode(const TextPos &pos, QString *path)
    {
        if (m_stack.isEmpty()) {
            m_document.sourceMap.setRootPos(pos);
            path->clear();
            return SourceMap::root;
        }
        const Frame &parent = m_stack.last();
        if (parent.isMap) {
            *path = FieldPath::child(parent.path, parent.key);
            if (parent.dropValue)
                return m_document.sourceMap.addDetached(pos);
            return m_document.sourceMap.addKey(parent.node, parent.key, parent.keyPos, pos);
        }
        *path = FieldPath::index(parent.path, parent.array.size());
        return m_document.sourceMap.addItem(parent.node, parent.array.size(), pos);
    }

    void finishNode(const QJsonValue &value, int height, YAML::anchor_t anchor, qint64 values)
    {
        if (anchor)
            m_anchors.insert(anchor, Anchored{value, height, values});
        if (m_stack.isEmpty()) {
            m_document.root = value;
            m_hasRoot = true;
            return;
        }
        Frame &parent = m_stack.last();
        parent.height = std::max(parent.height, height);
        if (!parent.isMap) {
            parent.array.append(value);
            return;
        }
        if (!parent.dropValue)
            parent.object.insert(parent.key, value);
        parent.haveKey = false;
        parent.dropValue = false;
    }

    void beginCollection(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                         bool isMap)
    {
        const QString what = isMap ? QStringLiteral("a map") : QStringLiteral("a list");
        if (expectingKey())
            abort(mark, keyPath(), QStringLiteral("a key must be a string, not %1").arg(what));
        // No path: at this depth it would be as long as the nesting.
        if (m_stack.size() + 1 > m_maxDepth)
            abort(mark, {}, depthMessage());
        const TextPos pos = toPos(mark);
        Frame frame;
        frame.isMap = isMap;
        frame.anchor = anchor;
        frame.valuesAtStart = m_values++;
        frame.node = beginNode(pos, &frame.path);
        if (!isNonSpecific(tag) && !isStandardTag(tag, isMap ? "map" : "seq"))
            error(pos, frame.path,
                  QStringLiteral("tag %1 is not supported on %2").arg(tagName(tag), what));
        m_stack.append(std::move(frame));
    }

    void endCollection()
    {
        Frame frame = m_stack.takeLast();
        const QJsonValue value = frame.isMap ? QJsonValue(frame.object) : QJsonValue(frame.array);
        finishNode(value, frame.height + 1, frame.anchor, m_values - frame.valuesAtStart);
    }

    static QJsonValue scalar(const std::string &tag, const QString &text, QString *message)
    {
        if (tag == "?") {
            if (auto v = nullScalar(text))
                return *v;
            if (auto v = boolScalar(text))
                return *v;
            if (auto v = numberScalar(text, true))
                return *v;
            return text;
        }
        if (tag == "!" || tag.empty() || isStandardTag(tag, "str"))
            return text;
        std::optional<QJsonValue> typed;
        if (isStandardTag(tag, "null"))
            typed = nullScalar(text);
        else if (isStandardTag(tag, "bool"))
            typed = boolScalar(text);
        else if (isStandardTag(tag, "int"))
            typed = numberScalar(text, false);
        else if (isStandardTag(tag, "float"))
            typed = numberScalar(text, true);
        else {
            *message = QStringLiteral("tag %1 is not supported on a scalar").arg(tagName(tag));
            return QJsonValue(QJsonValue::Null);
        }
        if (!typed) {
            *message = QStringLiteral("\"%1\" is not a valid %2").arg(text, tagName(tag));
            return QJsonValue(QJsonValue::Null);
        }
        return *typed;
    }

    const TextLocator &m_text;
    const Base m_base;
    const int m_maxDepth;
    ParsedText &m_out;
    QList<Frame> m_stack;
    QHash<YAML::anchor_t, Anchored> m_anchors; ///< complete anchored nodes of this document
    ParsedDocument m_document;
    bool m_hasRoot = false;
    qint64 m_values = 0;
    qint64 m_aliasValues = 0;
    qsizetype m_lastDocumentStart = -1;
};

// The offset of the first '[' or '{' that opens flow nesting deeper than maxDepth, or -1.
// yaml-cpp reads a run of unclosed brackets as nested implicit keys, so without this an input
// of 100,000 '[' would be refused as "a key must be a string". A rough scan, consulted only
// for text that failed to parse: it may miss brackets, never invent deep ones in sane text.
qsizetype tooDeepFlow(const QByteArray &text, int maxDepth)
{
    int depth = 0;
    char previous = '\n'; // the last significant character on this line
    const auto atNodeStart = [&] {
        return previous == '\n' || previous == ':' || previous == '-' || previous == '?' ||
               previous == ',' || previous == '[' || previous == '{';
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (c == '\n') {
            previous = '\n';
        } else if (c == ' ' || c == '\t' || c == '\r') {
            continue;
        } else if (c == '#' && (i == 0 || QByteArrayView(" \t\n").contains(text.at(i - 1)))) {
            while (i + 1 < text.size() && text.at(i + 1) != '\n')
                ++i;
        } else if ((c == '"' || c == '\'') && atNodeStart()) {
            while (++i < text.size() && text.at(i) != c) {
                if (c == '"' && text.at(i) == '\\')
                    ++i;
            }
            previous = c;
        } else if ((c == '[' || c == '{') && (depth > 0 || atNodeStart())) {
            if (++depth > maxDepth)
                return i;
            previous = c;
        } else {
            if ((c == ']' || c == '}') && depth > 0)
                --depth;
            previous = c;
        }
    }
    return -1;
}

} // namespace

namespace {

/// Parses text[from, to), which starts at `base` (a line start); `aliasValues` gets what its
/// aliases added, `enough` whether it stopped at ParsedText::maxErrors.
ParsedText parseRange(const TextLocator &text, qsizetype from, qsizetype to, const Base &base,
                      int maxDepth, qint64 *aliasValues, bool *enough)
{
    *enough = false;
    ParsedText out;
    ByteArrayBuffer buffer(text.text(), from, to);
    std::istream stream(&buffer);
    Builder builder(text, base, maxDepth, out);
    try {
        YAML::Parser parser(stream);
        while (parser.HandleNextDocument(builder)) {
        }
    } catch (const Abort &abort) {
        out.errors.append(abort.error);
    } catch (const Enough &) {
        *enough = true;
    } catch (const YAML::Exception &e) {
        out.errors.append(
            ManifestError{text.location(toPos(e.mark, base)),
                          {},
                          QStringLiteral("invalid YAML: ") + QString::fromStdString(e.msg)});
    }
    *aliasValues = builder.aliasValues();
    return out;
}

/// Where a large text can be cut in two for parsing on two threads: the start of a document
/// marker line ("---") near the middle, or -1. Such a line ends whatever precedes it (YAML
/// forbids it inside scalars and collections), and aliases do not reach across documents.
qsizetype splitPoint(const QByteArray &text)
{
    constexpr qsizetype smallest = 64 * 1024; // below, a thread costs more than it saves
    if (text.size() < smallest || std::thread::hardware_concurrency() < 2)
        return -1;
    for (qsizetype at = text.indexOf("\n---", text.size() / 2); at >= 0;
         at = text.indexOf("\n---", at + 1)) {
        const qsizetype after = at + 4;
        if (after == text.size() || QByteArrayView(" \t\r\n").contains(text.at(after)))
            return at + 1;
    }
    return -1;
}

} // namespace

ParsedText YamlParser::parse(const TextLocator &text, int maxDepth)
{
    // A large stream is read in two pieces at once (yaml-cpp is most of an apply's start-up).
    // Only a clean read counts: with any error the whole text is read again in one piece, so
    // that errors, their order and their limits are exactly those of one read.
    if (const qsizetype split = splitPoint(text.text()); split > 0) {
        const char *data = text.text().constData();
        const Base second{int(std::count(data, data + split, '\n')), split};
        ParsedText tail;
        qint64 tailAliases = 0;
        bool tailEnough = false;
        std::thread worker([&, copy = text] {
            tail = parseRange(copy, split, copy.text().size(), second, maxDepth, &tailAliases,
                              &tailEnough);
        });
        qint64 headAliases = 0;
        bool headEnough = false;
        ParsedText head = parseRange(text, 0, split, {}, maxDepth, &headAliases, &headEnough);
        worker.join();
        if (head.errors.isEmpty() && tail.errors.isEmpty() &&
            headAliases + tailAliases <= maxAliasValues) {
            head.documents.append(std::move(tail.documents));
            return head;
        }
    }

    qint64 aliases = 0;
    bool enough = false;
    ParsedText out = parseRange(text, 0, text.text().size(), {}, maxDepth, &aliases, &enough);
    if (enough)
        return out;
    const QString depthMessage = YamlParser::depthMessage(maxDepth);
    if (!out.errors.isEmpty() && out.errors.last().message != depthMessage) {
        if (const qsizetype deep = tooDeepFlow(text.text(), maxDepth); deep >= 0)
            out.errors.last() = ManifestError{text.location(deep), {}, depthMessage};
    }
    if (!out.errors.isEmpty())
        out.documents.clear();
    return out;
}

QString YamlParser::depthMessage(int maxDepth)
{
    return QStringLiteral("nesting is deeper than %1 levels").arg(maxDepth);
}

QJsonValue YamlParser::plainScalar(const QString &text)
{
    if (auto v = nullScalar(text))
        return *v;
    if (auto v = boolScalar(text))
        return *v;
    if (auto v = numberScalar(text, true))
        return *v;
    return text;
}

} // namespace converge
