// SPDX-License-Identifier: MIT
#include "trace/findingspage.h"

#include "base/unitstext.h"
#include "common/elidedtipdelegate.h"
#include "common/qstrings.h"
#include "common/timeformat.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ks {

namespace {

constexpr int SliceRole = Qt::UserRole + 1;
constexpr int RankRole = Qt::UserRole + 2;
enum Column { Saving, Share, Rule, Title, Columns };

QTreeWidgetItem *line(QTreeWidgetItem *parent, const QString &label, const QString &text)
{
    auto *item = new QTreeWidgetItem(parent);
    item->setText(Rule, label);
    item->setText(Title, text);
    item->setToolTip(Title, text);
    return item;
}

} // namespace

FindingsPage::FindingsPage(std::function<FindingsOf()> find, QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(tr("Working out what to fix first…"), this))
    , m_tree(new QTreeWidget(this))
    , m_task(this)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("findingsSummary"));
    layout->addWidget(m_summary);
    m_tree->setObjectName(QStringLiteral("findings"));
    m_tree->setHeaderLabels({tr("Saving (µs)"), tr("% of path"), tr("Rule"), tr("Finding")});
    m_tree->setItemDelegate(new ElidedTipDelegate(m_tree));
    m_tree->header()->setSectionResizeMode(Title, QHeaderView::Stretch);
    m_tree->setAlternatingRowColors(true);
    m_tree->setWordWrap(true); // a finding is a sentence: it wraps rather than being cut
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) {
        if (const QVariant slice = item->data(Title, SliceRole); slice.isValid())
            emit eventChosen(item->data(Title, RankRole).toUInt(), slice.toUInt());
    });
    m_task.run([find = std::move(find)](const std::atomic<bool> &) { return find(); },
        [this](FindingsOf found) {
            m_found = std::move(found);
            show(m_found);
        });
}

FindingsPage::~FindingsPage() = default;

QTreeWidgetItem *FindingsPage::row(const CriticalPathAnalysis &analysis, const StepFinding &f) const
{
    const CriticalPath &path = analysis.path();
    auto *item = new QTreeWidgetItem;
    if (f.saving) {
        item->setText(Saving, toQString(microsText(*f.saving)));
        item->setText(Share, toQString(percentText(double(*f.saving), double(path.length), 2)));
    } else {
        item->setText(Saving, tr("—"));
    }
    item->setTextAlignment(Saving, Qt::AlignRight | Qt::AlignVCenter);
    item->setTextAlignment(Share, Qt::AlignRight | Qt::AlignVCenter);
    item->setText(Rule, toQString(f.rule));
    item->setText(Title, toQString(f.title));
    item->setToolTip(Title, toQString(f.title));
    line(item, tr("change"), toQString(f.how));
    line(item, tr("fix"), toQString(f.fix));
    line(item, tr("docs"), toQString(f.doc));
    const bool run = analysis.ranks().size() > 1;
    for (const FindingEvidence &e : f.evidence) {
        const TraceModel &m = analysis.ranks()[e.rank].graph->model();
        const QString text = tr("%1 at %2, %3")
                                 .arg(toQString(m.sliceName(e.event)),
                                     formatDuration(double(m.slices.start[e.event] - m.minTime)),
                                     formatDuration(double(m.slices.dur[e.event])));
        QTreeWidgetItem *event = line(item, tr("event"),
            run ? tr("rank %1: %2").arg(analysis.ranks()[e.rank].rank).arg(text) : text);
        event->setData(Title, SliceRole, quint32(e.event));
        event->setData(Title, RankRole, e.rank);
        event->setForeground(Title, palette().color(QPalette::Link));
    }
    return item;
}

void FindingsPage::show(const FindingsOf &found)
{
    m_tree->clear();
    if (!found.path || !found.path->path().problem.empty()) {
        m_summary->setText(
            tr("No findings: %1")
                .arg(toQString(found.path ? found.path->path().problem : found.problem)));
        return;
    }
    const CriticalPath &path = found.path->path();
    const std::vector<StepFinding> &findings = *found.findings;
    const QString step
        = path.step == kNoValue ? tr("the whole trace") : tr("ProfilerStep#%1").arg(path.step);
    m_summary->setText(findings.empty()
            ? tr("No finding for %1: none of the rules of docs/findings.md sees its cause on "
                 "the critical path (%2 µs).")
                  .arg(step, toQString(microsText(path.length)))
            : tr("What to fix first in %1, by the time each change would save on its critical "
                 "path (%2 µs; the step model, as --findings writes it). Click an event to see it.")
                  .arg(step, toQString(microsText(path.length))));
    for (const StepFinding &f : findings)
        m_tree->addTopLevelItem(row(*found.path, f));
    for (int c : {Saving, Share, Rule})
        m_tree->resizeColumnToContents(c);
}

} // namespace ks
