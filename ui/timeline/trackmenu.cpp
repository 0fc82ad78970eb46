// SPDX-License-Identifier: MIT
#include "timeline/trackmenu.h"

#include "timeline/tracklayout.h"

#include <QCoreApplication>
#include <QMenu>

namespace ks {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("TrackMenu", text);
}

} // namespace

void fillTrackMenu(QMenu &menu, TrackLayout &layout, int track, std::function<void()> changed)
{
    const TrackLayout::Track t = layout.tracks()[size_t(track)];
    auto add = [&](const QString &text, const std::function<void()> &act) {
        QObject::connect(menu.addAction(text), &QAction::triggered, &menu, [act, changed] {
            act();
            changed();
        });
    };
    const bool lane = !t.header && t.curve < 0 && t.lane != kNoLane;
    if (lane) {
        const LaneId l = t.lane;
        const bool pinned = layout.pinned(l);
        add(pinned ? tr("Unpin") : tr("Pin to Top"),
            [&layout, l, pinned] { layout.setPinned(l, !pinned); });
        add(tr("Hide Track"), [&layout, l] { layout.hideLane(l); });
        add(tr("Move Up"), [&layout, l] { layout.moveLane(l, -1); });
        add(tr("Move Down"), [&layout, l] { layout.moveLane(l, 1); });
        menu.addSeparator();
    }
    const int group = t.group;
    add(tr("Collapse All Other Processes"),
        [&layout, group] { layout.collapseOtherGroups(group); });
    add(tr("Show Only This Process"), [&layout, group] { layout.showOnlyGroup(group); });
    add(tr("Hide This Process"), [&layout, group] { layout.hideGroup(group); });
    if (const int hidden = layout.hiddenCount(); hidden > 0) {
        menu.addSeparator();
        add(tr("Show All Tracks (%1 hidden)").arg(hidden), [&layout] { layout.showAll(); });
    }
}

} // namespace ks
