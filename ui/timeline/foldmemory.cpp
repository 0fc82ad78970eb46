// SPDX-License-Identifier: MIT
#include "timeline/foldmemory.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>
#include <vector>

namespace ks::foldmemory {

namespace {

const QString kGroup = QStringLiteral("timelineFolds");

//! A settings key for \a path: a hash, as paths hold the separators QSettings uses.
QString keyOf(const QString &path)
{
    const QByteArray absolute = QFileInfo(path).absoluteFilePath().toUtf8();
    return QString::fromLatin1(
        QCryptographicHash::hash(absolute, QCryptographicHash::Sha1).toHex());
}

//! Drops the least recently saved traces beyond kTraces.
void prune(QSettings &settings)
{
    const QStringList keys = settings.childGroups();
    if (keys.size() <= kTraces)
        return;
    std::vector<std::pair<qint64, QString>> byAge;
    for (const QString &key : keys)
        byAge.emplace_back(settings.value(key + QStringLiteral("/saved")).toLongLong(), key);
    std::sort(byAge.begin(), byAge.end());
    for (size_t i = 0; i + kTraces < byAge.size(); ++i)
        settings.remove(byAge[i].second);
}

} // namespace

std::optional<TrackLayout::FoldState> load(const QString &tracePath)
{
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.beginGroup(keyOf(tracePath));
    if (!settings.contains(QStringLiteral("saved")))
        return std::nullopt;
    TrackLayout::FoldState state;
    state.collapsedGroups = settings.value(QStringLiteral("collapsedGroups")).toStringList();
    state.collapsedLanes = settings.value(QStringLiteral("collapsedLanes")).toStringList();
    state.unfoldedPython = settings.value(QStringLiteral("unfoldedPython")).toStringList();
    state.pinnedLanes = settings.value(QStringLiteral("pinnedLanes")).toStringList();
    state.hiddenLanes = settings.value(QStringLiteral("hiddenLanes")).toStringList();
    state.hiddenGroups = settings.value(QStringLiteral("hiddenGroups")).toStringList();
    state.laneOrder = settings.value(QStringLiteral("laneOrder")).toStringList();
    return state;
}

void save(const QString &tracePath, const TrackLayout::FoldState &state)
{
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.beginGroup(keyOf(tracePath));
    settings.setValue(QStringLiteral("saved"), QDateTime::currentMSecsSinceEpoch());
    settings.setValue(QStringLiteral("collapsedGroups"), state.collapsedGroups);
    settings.setValue(QStringLiteral("collapsedLanes"), state.collapsedLanes);
    settings.setValue(QStringLiteral("unfoldedPython"), state.unfoldedPython);
    settings.setValue(QStringLiteral("pinnedLanes"), state.pinnedLanes);
    settings.setValue(QStringLiteral("hiddenLanes"), state.hiddenLanes);
    settings.setValue(QStringLiteral("hiddenGroups"), state.hiddenGroups);
    settings.setValue(QStringLiteral("laneOrder"), state.laneOrder);
    settings.endGroup();
    prune(settings);
}

bool pythonHidden()
{
    return QSettings().value(QStringLiteral("timeline/pythonHidden"), false).toBool();
}

void setPythonHidden(bool hidden)
{
    QSettings().setValue(QStringLiteral("timeline/pythonHidden"), hidden);
}

bool graphsCompacted()
{
    return QSettings().value(QStringLiteral("timeline/graphsCompacted"), false).toBool();
}

void setGraphsCompacted(bool compacted)
{
    QSettings().setValue(QStringLiteral("timeline/graphsCompacted"), compacted);
}

} // namespace ks::foldmemory
