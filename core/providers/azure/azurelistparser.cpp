// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "azurelistparser.h"

#include <QXmlStreamReader>

namespace converge {

namespace {

/// Reads the children of the current element as name → text pairs (nested elements skipped).
template<typename Store>
void readFlatChildren(QXmlStreamReader &xml, Store &&store)
{
    while (xml.readNextStartElement()) {
        const QString name = xml.name().toString();
        store(name, xml.readElementText(QXmlStreamReader::SkipChildElements));
    }
}

bool readItem(QXmlStreamReader &xml, AzureListParser::Item *item)
{
    while (xml.readNextStartElement()) {
        if (xml.name() == QLatin1String("Name")) {
            item->name = xml.readElementText(QXmlStreamReader::SkipChildElements);
        } else if (xml.name() == QLatin1String("Properties")) {
            readFlatChildren(xml, [item](const QString &name, const QString &value) {
                item->properties.insert(name, value);
            });
        } else if (xml.name() == QLatin1String("Metadata")) {
            readFlatChildren(xml, [item](const QString &name, const QString &value) {
                item->metadata.insert(name, value);
            });
        } else {
            xml.skipCurrentElement();
        }
    }
    return !xml.hasError();
}

} // namespace

bool AzureListParser::parse(const QByteArray &body, const QString &itemElement, Page *page,
                            QString *error)
{
    *page = Page{};
    const auto fail = [error](const QString &why) {
        if (error)
            *error = QStringLiteral("the listing could not be read: %1").arg(why);
        return false;
    };
    QXmlStreamReader xml(body);
    if (!xml.readNextStartElement())
        return fail(xml.hasError() ? xml.errorString() : QStringLiteral("the body is empty"));
    if (xml.name() != QLatin1String("EnumerationResults"))
        return fail(QStringLiteral("<%1> instead of <EnumerationResults>").arg(xml.name()));

    const QString collection = itemElement + QLatin1Char('s');
    bool sawCollection = false;
    while (xml.readNextStartElement()) {
        if (xml.name() == collection) {
            sawCollection = true;
            while (xml.readNextStartElement()) {
                if (xml.name() == QLatin1String("BlobPrefix")) {
                    // A virtual folder of a listing with a delimiter: <BlobPrefix><Name>.
                    QString prefix;
                    while (xml.readNextStartElement()) {
                        if (xml.name() == QLatin1String("Name"))
                            prefix = xml.readElementText(QXmlStreamReader::SkipChildElements);
                        else
                            xml.skipCurrentElement();
                    }
                    if (prefix.isEmpty())
                        return fail(QStringLiteral("a <BlobPrefix> without a <Name>"));
                    page->prefixes.append(prefix);
                    continue;
                }
                if (xml.name() != itemElement) {
                    xml.skipCurrentElement();
                    continue;
                }
                Item item;
                if (!readItem(xml, &item))
                    break;
                if (item.name.isEmpty())
                    return fail(QStringLiteral("a <%1> without a <Name>").arg(itemElement));
                page->items.append(item);
            }
        } else if (xml.name() == QLatin1String("NextMarker")) {
            page->nextMarker = xml.readElementText(QXmlStreamReader::SkipChildElements);
        } else {
            xml.skipCurrentElement();
        }
    }
    if (xml.hasError())
        return fail(xml.errorString());
    if (!sawCollection && !page->nextMarker.isEmpty())
        return fail(QStringLiteral("no <%1> element").arg(collection));
    return true;
}

} // namespace converge
