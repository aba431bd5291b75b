// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "spannerinstancehook.h"

namespace converge {

void SpannerInstanceHook::capacityIn(Observation &o, const QJsonObject &desired)
{
    const QString nodes = QStringLiteral("numNodes");
    const QString units = QStringLiteral("processingUnits");
    const bool inNodes = desired.contains(nodes);
    const bool inUnits = desired.contains(units);
    if (inNodes && inUnits)
        return; // as asked: Spanner refuses it, and says why
    if (inNodes || inUnits) {
        o.spec.remove(inNodes ? units : nodes);
        return;
    }
    const int processingUnits = o.spec.value(units).toInt();
    if (processingUnits > 0 && processingUnits % 1000 == 0)
        o.spec.remove(units);
    else
        o.spec.remove(nodes);
}

} // namespace converge
