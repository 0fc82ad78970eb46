// SPDX-License-Identifier: MIT
#include "trace/healthpanel.h"

#include "common/qstrings.h"
#include "common/selectioncontroller.h"
#include "session/loadedtrace.h"
#include "trace/diagnosticsbanner.h"

#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ks {

namespace {

enum Column { Name, Count, Explanation, First, Columns };

//! "PyTorch's rule: …" for a check that follows one, else empty.
QString ruleText(const CheckInfo &c)
{
    return c.source.empty()
        ? QString()
        : QObject::tr("PyTorch's rule: %1, %2").arg(toQString(kValidatorFile), toQString(c.source));
}

QTreeWidgetItem *itemOf(const Finding &f, const QStyle &style)
{
    const CheckInfo &c = info(f.check);
    auto *item = new QTreeWidgetItem;
    item->setText(Name, toQString(c.name));
    item->setIcon(Name,
        style.standardIcon(f.severity == Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                           : QStyle::SP_MessageBoxInformation));
    item->setText(Count, QString::number(f.count));
    item->setTextAlignment(Count, Qt::AlignRight | Qt::AlignVCenter);
    item->setText(Explanation, toQString(c.explanation));
    item->setText(First, toQString(f.example));
    const QString rule = ruleText(c);
    for (int column = 0; column < Columns; ++column)
        item->setToolTip(
            column, toQString(c.explanation) + (rule.isEmpty() ? rule : QLatin1Char('\n') + rule));
    return item;
}

} // namespace

HealthPanel::HealthPanel(SelectionController *selection, QWidget *parent)
    : QDialog(parent)
    , m_selection(selection)
    , m_tree(new QTreeWidget(this))
    , m_detail(new QLabel(this))
{
    const LoadedTrace &trace = selection->trace();
    setWindowTitle(tr("Trace health — %1").arg(toQString(trace.model->path)));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(
        tr("What makes this trace's numbers less than exact (the findings of "
           "<tt>kinetoscope --check</tt>). Click a finding to see its first instance."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_tree->setHeaderLabels({tr("Finding"), tr("Count"), tr("What it means"), tr("First")});
    m_tree->setRootIsDecorated(false);
    m_tree->setWordWrap(true);
    m_tree->setObjectName(QStringLiteral("healthFindings"));
    for (const Finding &f : trace.findings())
        m_tree->addTopLevelItem(itemOf(f, *style()));
    if (trace.findings().empty())
        m_tree->addTopLevelItem(new QTreeWidgetItem({tr("nothing found")}));
    m_tree->header()->setSectionResizeMode(Explanation, QHeaderView::Stretch);
    m_tree->resizeColumnToContents(Name);
    m_tree->resizeColumnToContents(Count);
    m_tree->setColumnWidth(First, 360);
    layout->addWidget(m_tree, 1);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setObjectName(QStringLiteral("healthDetail"));
    layout->addWidget(m_detail);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &HealthPanel::describe);
    m_tree->setCurrentItem(m_tree->topLevelItem(0));
    connect(m_tree, &QTreeWidget::itemClicked, this, &HealthPanel::activate);
    connect(m_tree, &QTreeWidget::itemActivated, this, &HealthPanel::activate);
    resize(1100, 420);
}

HealthPanel *HealthPanel::open(SelectionController *selection, QWidget *window)
{
    auto *panel = new HealthPanel(selection, window);
    panel->setAttribute(Qt::WA_DeleteOnClose);
    panel->show();
    return panel;
}

void HealthPanel::describe(QTreeWidgetItem *item)
{
    const auto &findings = m_selection->trace().findings();
    const int row = m_tree->indexOfTopLevelItem(item);
    if (row < 0 || size_t(row) >= findings.size()) {
        m_detail->clear();
        return;
    }
    const Finding &f = findings[size_t(row)];
    const CheckInfo &c = info(f.check);
    const QString rule = ruleText(c);
    m_detail->setText(
        QStringLiteral("<b>%1</b> × %2 — %3<br>First: %4")
            .arg(toQString(c.name), QString::number(f.count),
                toQString(c.explanation).toHtmlEscaped(), toQString(f.example).toHtmlEscaped())
        + (rule.isEmpty() ? rule : QStringLiteral("<br>") + rule.toHtmlEscaped()));
}

void HealthPanel::activate(QTreeWidgetItem *item)
{
    const auto &findings = m_selection->trace().findings();
    const int row = m_tree->indexOfTopLevelItem(item);
    if (row < 0 || size_t(row) >= findings.size())
        return;
    const Finding &f = findings[size_t(row)];
    if (f.first != kNoSlice)
        m_selection->select(f.first);
    else if (f.check == Check::LoadWarnings)
        DiagnosticsBanner::showDiagnostics(m_selection->trace(), this);
}

} // namespace ks
