// SPDX-License-Identifier: MIT
#include "trace/diagnosticsbanner.h"

#include "analysis/health/dataloss.h"
#include "common/qstrings.h"
#include "common/selectioncontroller.h"
#include "export/summary.h"
#include "session/loadedtrace.h"
#include "trace/healthpanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QToolButton>

namespace ks {

DiagnosticsBanner *DiagnosticsBanner::create(SelectionController *selection, QWidget *parent)
{
    const LoadedTrace &trace = selection->trace();
    const TraceModel &m = *trace.model;
    // Each warning as the Health panel lists it, name and count ("overlapping_slices × 20").
    QStringList warned;
    int notes = 0;
    for (const Finding &f : trace.findings()) {
        if (f.severity == Severity::Warning)
            warned << toQString(info(f.check).name) + QStringLiteral(" × ")
                    + QString::number(f.count);
        else
            ++notes;
    }
    const bool noSequence = !trace.graph->stats().hasSequenceNumbers && m.slices.size() > 0;
    const std::string lost = dataLoss(*trace.graph);
    if (warned.isEmpty() && lost.empty() && !noSequence)
        return nullptr;
    QString text;
    if (!lost.empty())
        text = tr("Read in part: %1. Every complete event before the stop is loaded. ")
                   .arg(toQString(lost));
    if (!warned.isEmpty()) {
        const QString listed = warned.mid(0, 3).join(QStringLiteral("; "))
            + (warned.size() > 3 ? QStringLiteral("; …") : QString());
        text += warned.size() == 1 ? tr("Health: 1 warning: %1").arg(listed)
                                   : tr("Health: %1 warnings: %2").arg(warned.size()).arg(listed);
        text += notes == 0 ? QStringLiteral(".")
            : notes == 1   ? tr("; and 1 note.")
                           : tr("; and %1 notes.").arg(notes);
    }
    if (noSequence)
        text += tr(" This trace has no sequence numbers: forward and backward ops cannot be paired "
                   "(GPU time is still attributed).");
    return new DiagnosticsBanner(selection, text, parent);
}

DiagnosticsBanner::DiagnosticsBanner(
    SelectionController *selection, const QString &text, QWidget *parent)
    : QFrame(parent)
    , m_selection(selection)
{
    setObjectName(QStringLiteral("diagnosticsBanner"));
    setStyleSheet(QStringLiteral(
        "#diagnosticsBanner { background: #fff4ce; border-bottom: 1px solid #e0c060; }"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 8, 4);
    auto *label = new QLabel(text, this);
    label->setWordWrap(true);
    row->addWidget(label, 1);
    auto *health = new QPushButton(tr("Health…"), this);
    health->setObjectName(QStringLiteral("healthButton"));
    connect(health, &QPushButton::clicked, this, &DiagnosticsBanner::showHealth);
    row->addWidget(health);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    row->addWidget(close);
}

void DiagnosticsBanner::showHealth()
{
    HealthPanel::open(m_selection, window());
}

void DiagnosticsBanner::showDiagnostics(const LoadedTrace &trace, QWidget *parent)
{
    auto *box = new QMessageBox(QMessageBox::Information, tr("Diagnostics"),
        tr("What the loader and linker found unusual in %1:")
            .arg(QString::fromStdString(trace.model->path)),
        QMessageBox::Close, parent);
    box->setTextFormat(Qt::RichText);
    box->setInformativeText(summary(trace));
    // Where each came from (file offsets), for whoever wants to look in the file.
    box->setDetailedText(report(trace));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString DiagnosticsBanner::report(const LoadedTrace &trace)
{
    return QString::fromStdString(
        allDiagnostics(*trace.model, *trace.graph, trace.memory()).report());
}

QString DiagnosticsBanner::summary(const LoadedTrace &trace)
{
    const Diagnostics all = allDiagnostics(*trace.model, *trace.graph, trace.memory());
    const auto list = [&](Severity severity) {
        QString items;
        for (const DiagnosticInfo &d : kDiagnostics)
            if (d.severity == severity && all.count(d.id) > 0)
                items += QStringLiteral("<li><b>%1</b> × %2 — %3</li>")
                             .arg(toQString(d.name))
                             .arg(all.count(d.id))
                             .arg(QString::fromUtf8(
                                 d.description.data(), qsizetype(d.description.size()))
                                      .toHtmlEscaped());
        return items;
    };
    QString html;
    if (const QString warnings = list(Severity::Warning); !warnings.isEmpty())
        html += tr(
            "<p>Warnings (something in the file was skipped, cut or repaired):</p><ul>%1</ul>")
                    .arg(warnings);
    if (const QString info = list(Severity::Info); !info.isEmpty())
        html += tr("<p>Informational (normal in real traces):</p><ul>%1</ul>").arg(info);
    return html;
}

} // namespace ks
