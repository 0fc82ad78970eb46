// SPDX-License-Identifier: MIT
#include "trace/diagnosticsbanner.h"

#include "common/qstrings.h"
#include "export/summary.h"
#include "session/loadedtrace.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QToolButton>

namespace ks {

DiagnosticsBanner *DiagnosticsBanner::create(const LoadedTrace &trace, QWidget *parent)
{
    const TraceModel &m = *trace.model;
    const uint64_t warnings = allDiagnostics(m, *trace.graph, trace.memory()).warnings();
    const bool noSequence = !trace.graph->stats().hasSequenceNumbers && m.slices.size() > 0;
    if (warnings == 0 && !m.truncated && !noSequence)
        return nullptr;
    QString text;
    if (m.truncated) {
        text = tr("The file is cut off: every complete event was loaded. ");
        if (const std::string lost = truncationLoss(m, *trace.graph); !lost.empty())
            text += toQString(lost).replace(0, 1, QStringLiteral("N")) + QStringLiteral(". ");
    }
    if (warnings > 0)
        text += tr("Loaded with %n warning(s).", nullptr, int(warnings));
    if (noSequence)
        text += tr(" This trace has no sequence numbers: forward and backward ops cannot be paired "
                   "(GPU time is still attributed).");
    return new DiagnosticsBanner(trace, text, parent);
}

DiagnosticsBanner::DiagnosticsBanner(const LoadedTrace &trace, const QString &text, QWidget *parent)
    : QFrame(parent)
    , m_trace(trace)
{
    setObjectName(QStringLiteral("diagnosticsBanner"));
    setStyleSheet(QStringLiteral(
        "#diagnosticsBanner { background: #fff4ce; border-bottom: 1px solid #e0c060; }"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 8, 4);
    auto *label = new QLabel(text, this);
    label->setWordWrap(true);
    row->addWidget(label, 1);
    auto *details = new QPushButton(tr("Details…"), this);
    connect(details, &QPushButton::clicked, this, &DiagnosticsBanner::showDetails);
    row->addWidget(details);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    row->addWidget(close);
}

void DiagnosticsBanner::showDetails()
{
    auto *box = new QMessageBox(QMessageBox::Information, tr("Diagnostics"),
        tr("What the loader and linker found unusual in %1:")
            .arg(QString::fromStdString(m_trace.model->path)),
        QMessageBox::Close, this);
    box->setTextFormat(Qt::RichText);
    box->setInformativeText(summary(m_trace));
    // Where each came from (file offsets), for whoever wants to look in the file.
    box->setDetailedText(report(m_trace));
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
