// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "manifestreader.h"

#include "fieldschema.h"

#include "fieldpath.h"
#include "jsonparser.h"
#include "kindregistry.h"
#include "manifesttranslator.h"
#include "schemavalidator.h"
#include "sourcemap.h"
#include "textlocator.h"
#include "yamlparser.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QMap>

#include <algorithm>
#include <cstdio>
#include <optional>

namespace converge {

namespace {

constexpr qsizetype maxErrors = ParsedText::maxErrors;

const QString stdinName = QStringLiteral("<stdin>");

bool isJsonName(const QString &fileName)
{
    return fileName.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

bool isManifestName(const QString &fileName)
{
    return isJsonName(fileName) || fileName.endsWith(QLatin1String(".yaml"), Qt::CaseInsensitive) ||
           fileName.endsWith(QLatin1String(".yml"), Qt::CaseInsensitive);
}

// One read: the results so far, and which kind/name was declared where.
class Session final
{
public:
    Session(const KindRegistry &registry, const ManifestReader::Options &options)
        : m_validator(registry)
        , m_options(options)
    {}

    bool full() const { return m_result.errors.size() >= maxErrors; }

    void addError(const ManifestError &error)
    {
        if (m_result.errors.size() < maxErrors) {
            m_result.errors.append(error);
            if (m_result.errors.size() == maxErrors)
                m_result.errors.append(ManifestError{
                    error.location,
                    {},
                    QStringLiteral("too many errors; stopped after %1").arg(maxErrors)});
        }
    }

    void fileError(const QString &fileName, const QString &message)
    {
        addError(ManifestError{SourceLocation{fileName, 0, 0}, {}, message});
    }

    void tooLarge(const QString &fileName, qint64 size)
    {
        const QString limit = QString::number(m_options.maxFileBytes);
        if (size < 0)
            fileError(fileName, QStringLiteral("is larger than the limit of %1 bytes").arg(limit));
        else
            fileError(fileName, QStringLiteral("is %1 bytes, larger than the limit of %2 bytes")
                                    .arg(QString::number(size), limit));
    }

    void readText(QByteArray data, const QString &fileName, bool json)
    {
        if (full())
            return;
        if (data.size() > m_options.maxFileBytes) {
            tooLarge(fileName, data.size());
            return;
        }
        // yaml-cpp skips a byte order mark without counting it; so do we, for both formats.
        if (data.startsWith("\xEF\xBB\xBF"))
            data.remove(0, 3);
        const TextLocator text(data, fileName);
        if (const qsizetype bad = TextLocator::firstBadByte(data); bad >= 0) {
            addError(ManifestError{text.location(bad),
                                   {},
                                   QStringLiteral("is not UTF-8 text (byte 0x%1)")
                                       .arg(uchar(data.at(bad)), 2, 16, QLatin1Char('0'))});
            return;
        }
        const ParsedText parsed = json ? JsonParser::parse(text, m_options.maxDepth)
                                       : YamlParser::parse(text, m_options.maxDepth);
        for (const ManifestError &error : parsed.errors)
            addError(error);
        for (const ParsedDocument &document : parsed.documents) {
            if (full())
                return;
            readDocument(text, document);
        }
    }

    void readDevice(QIODevice &device, const QString &fileName, std::optional<bool> json)
    {
        // One byte more than allowed tells a file that is too large from one that just fits.
        const QByteArray data = device.read(m_options.maxFileBytes + 1);
        if (data.size() > m_options.maxFileBytes) {
            tooLarge(fileName, -1);
            return;
        }
        if (!json) {
            // Standard input has no name to go by: JSON when it starts like JSON.
            const auto first = std::find_if(data.cbegin(), data.cend(), [](char c) {
                return c != ' ' && c != '\t' && c != '\n' && c != '\r';
            });
            json = first != data.cend() && *first == '{';
        }
        readText(data, fileName, *json);
    }

    void readFile(const QString &path)
    {
        if (full())
            return;
        const QFileInfo info(path);
        if (!info.exists()) {
            fileError(path, QStringLiteral("no such file or folder"));
            return;
        }
        if (info.isDir()) {
            fileError(path, QStringLiteral("is a folder, not a file"));
            return;
        }
        // Refused on its size alone: a huge file is never read into memory.
        if (info.size() > m_options.maxFileBytes) {
            tooLarge(path, info.size());
            return;
        }
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            fileError(path, QStringLiteral("cannot be read: %1").arg(file.errorString()));
            return;
        }
        readDevice(file, path, isJsonName(path));
    }

    void readFolder(const QString &path)
    {
        const QDir dir(path);
        QStringList names = dir.entryList(QDir::Files | QDir::NoDotAndDotDot);
        names.removeIf([](const QString &name) { return !isManifestName(name); });
        // Plain code-unit order: the same on every machine and locale.
        std::sort(names.begin(), names.end());
        for (const QString &name : std::as_const(names))
            readFile(dir.filePath(name));
    }

    void readStdin()
    {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly)) {
            fileError(stdinName, QStringLiteral("cannot be read: %1").arg(in.errorString()));
            return;
        }
        readDevice(in, stdinName, std::nullopt);
    }

    ManifestReader::Result take()
    {
        translateForeign();
        if (!m_result.errors.isEmpty()) {
            m_result.objects.clear();
            m_result.notes.clear();
        }
        return std::move(m_result);
    }

private:
    void readDocument(const TextLocator &text, const ParsedDocument &document)
    {
        const SourceMap &map = document.sourceMap;
        const SourceLocation where = text.location(map.keyPos(SourceMap::root));
        if (!document.root.isObject()) {
            addError(ManifestError{where,
                                   {},
                                   QStringLiteral("a manifest must be a mapping of fields, not %1")
                                       .arg(FieldSchema::describeValue(document.root))});
            return;
        }
        const QJsonObject root = document.root.toObject();
        if (root.value(QStringLiteral("kind")) != QJsonValue(QStringLiteral("List"))) {
            readObject(text, map, SourceMap::root, root);
            return;
        }
        const QString itemsPath = QStringLiteral("items");
        const QJsonValue items = root.value(itemsPath);
        if (!items.isArray()) {
            addError(error(text, map, SourceMap::root, itemsPath,
                           items.isUndefined() ? QStringLiteral("is required")
                                               : QStringLiteral("expected a list, got %1")
                                                     .arg(FieldSchema::describeValue(items))));
            return;
        }
        const int itemsNode = map.child(SourceMap::root, itemsPath);
        const QJsonArray list = items.toArray();
        for (qsizetype i = 0; i < list.size() && !full(); ++i) {
            const int node = map.item(itemsNode, i);
            if (!list.at(i).isObject()) {
                addError(ManifestError{text.location(map.keyPos(node)),
                                       FieldPath::index(itemsPath, i),
                                       QStringLiteral("expected an object, got %1")
                                           .arg(FieldSchema::describeValue(list.at(i)))});
                continue;
            }
            readObject(text, map, node, list.at(i).toObject());
        }
    }

    void readObject(const TextLocator &text, const SourceMap &map, int node,
                    const QJsonObject &object)
    {
        for (qsizetype i = 0; i < m_options.translators.size(); ++i) {
            if (m_options.translators.at(i)->handles(object)) {
                // Translated at the end, all together: these documents refer to each other.
                m_foreign[i].append(
                    ForeignDocument{object, text.location(map.keyPos(node)),
                                    [text, map, node](const QString &path) {
                                        return error(text, map, node, path, {}).location;
                                    }});
                return;
            }
        }
        // By value: the object keeps it (the text and the map are shared, not copied).
        const std::function<SourceLocation(const QString &)> locate = [text, map,
                                                                       node](const QString &path) {
            return error(text, map, node, path, {}).location;
        };
        addValidated(object, text.location(map.keyPos(node)), locate);
    }

    void translateForeign()
    {
        for (auto it = m_foreign.cbegin(); it != m_foreign.cend() && !full(); ++it) {
            const QList<ForeignDocument> &documents = it.value();
            const ManifestTranslator::Result translated =
                m_options.translators.at(it.key())->translate(documents);
            for (const ManifestTranslator::Error &e : translated.errors) {
                const ForeignDocument &document = documents.at(e.document);
                addError(ManifestError{document.locate(e.path), e.path, e.message});
            }
            if (!translated.errors.isEmpty())
                continue;
            for (const ManifestTranslator::Translated &t : translated.objects) {
                const ForeignDocument &document = documents.at(t.document);
                addValidated(t.object, document.location, document.locate);
            }
            for (const ManifestTranslator::Error &n : translated.notes) {
                const ForeignDocument &document = documents.at(n.document);
                m_result.notes.append(ManifestError{document.locate(n.path), n.path, n.message});
            }
        }
    }

    void addValidated(const QJsonObject &object, const SourceLocation &where,
                      const std::function<SourceLocation(const QString &)> &locate)
    {
        const SchemaValidator::Result validated =
            m_validator.validate(object, m_options.keepStatus);
        for (const ValidationError &e : validated.errors)
            addError(ManifestError{locate(e.path), e.path, e.message});
        if (!validated.ok())
            return;
        const ResourceKey key = validated.resource.key();
        const auto first = m_declared.constFind(key);
        if (first != m_declared.cend()) {
            addError(ManifestError{where,
                                   {},
                                   QStringLiteral("%1 is declared twice (first at %2)")
                                       .arg(key.toString(), first.value().toString())});
            return;
        }
        m_declared.insert(key, where);
        m_result.objects.append(ManifestObject{validated.resource, where, locate});
    }

    // An error at `path` of the object at `node`: at the field's key, at the nearest ancestor
    // that is there when the field is not (a missing required field points at its parent), and
    // at the value for kind and apiVersion, whose value is what is wrong.
    static ManifestError error(const TextLocator &text, const SourceMap &map, int node,
                               const QString &path, const QString &message)
    {
        const SourceMap::Match match = map.find(path, node);
        const bool atValue =
            match.exact && (path == QLatin1String("kind") || path == QLatin1String("apiVersion"));
        const TextPos pos = atValue ? map.valuePos(match.node) : map.keyPos(match.node);
        return ManifestError{text.location(pos), path, message};
    }

    SchemaValidator m_validator;
    const ManifestReader::Options &m_options;
    ManifestReader::Result m_result;
    QHash<ResourceKey, SourceLocation> m_declared;
    QMap<qsizetype, QList<ForeignDocument>> m_foreign; ///< by translator
};

} // namespace

QString SourceLocation::toString() const
{
    if (line <= 0)
        return file;
    if (column <= 0)
        return file + QLatin1Char(':') + QString::number(line);
    return file + QLatin1Char(':') + QString::number(line) + QLatin1Char(':') +
           QString::number(column);
}

QString ManifestError::toString() const
{
    QString text = location.toString() + QStringLiteral(": ");
    if (!path.isEmpty())
        text += path + QStringLiteral(": ");
    return text + message;
}

ManifestReader::ManifestReader(const KindRegistry &registry)
    : m_registry(registry)
{}

ManifestReader::ManifestReader(const KindRegistry &registry, const Options &options)
    : m_registry(registry)
    , m_options(options)
{}

ManifestReader::Result ManifestReader::read(const QByteArray &data, const QString &fileName) const
{
    Session session(m_registry, m_options);
    session.readText(data, fileName, isJsonName(fileName));
    return session.take();
}

ManifestReader::Result ManifestReader::readFile(const QString &path) const
{
    Session session(m_registry, m_options);
    session.readFile(path);
    return session.take();
}

ManifestReader::Result ManifestReader::readPaths(const QStringList &paths) const
{
    Session session(m_registry, m_options);
    for (const QString &path : paths) {
        if (session.full())
            break;
        if (path == QLatin1String("-"))
            session.readStdin();
        else if (QFileInfo(path).isDir())
            session.readFolder(path);
        else
            session.readFile(path);
    }
    return session.take();
}

} // namespace converge
