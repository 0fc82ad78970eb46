// SPDX-License-Identifier: MIT
#include "window/welcomepage.h"

#include <QCommandLinkButton>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ks {

WelcomePage::WelcomePage(QWidget *parent)
    : QWidget(parent)
    , m_recentBox(new QWidget(this))
    , m_recentList(new QVBoxLayout(m_recentBox))
{
    setObjectName(QStringLiteral("welcomePage"));
    auto *outer = new QVBoxLayout(this);
    outer->addStretch(1);
    auto *column = new QWidget(this);
    // A set width: centred at its size hint, word-wrapped text would get the narrowest width and
    // too little height (the subtitle and the links' descriptions were cut off).
    column->setFixedWidth(580);
    auto *layout = new QVBoxLayout(column);
    auto *title = new QLabel(tr("<h1>Kinetoscope</h1><p>Every forward op with its backward, the "
                                "GPU kernels each ran, and what it all cost.</p>"),
        column);
    title->setWordWrap(true);
    layout->addWidget(title);
    const auto link = [&](const QString &text, const QString &description, auto signal) {
        auto *button = new QCommandLinkButton(text, description, column);
        connect(button, &QCommandLinkButton::clicked, this, signal);
        layout->addWidget(button);
        return button;
    };
    link(tr("Open a trace…"),
        tr("*.pt.trace.json or .json.gz from torch.profiler (Ctrl+O). Or drop files anywhere on "
           "this window."),
        &WelcomePage::openRequested)
        ->setObjectName(QStringLiteral("welcomeOpen"));
    link(tr("Open the demo trace"),
        tr("A small generated training run: three steps, a "
           "transformer block, convolutions."),
        &WelcomePage::demoRequested)
        ->setObjectName(QStringLiteral("welcomeDemo"));
    link(tr("Compare two traces…"), tr("Before and after a change: pairs matched step by step."),
        &WelcomePage::compareRequested);

    m_recentList->setContentsMargins(0, 12, 0, 0);
    m_recentList->setSpacing(2);
    layout->addWidget(m_recentBox);
    m_recentBox->hide();
    // Centred between stretches rather than by alignment, which would lose the column's
    // height-for-width.
    auto *centred = new QHBoxLayout;
    centred->addStretch(1);
    centred->addWidget(column);
    centred->addStretch(1);
    outer->addLayout(centred);
    outer->addStretch(2);
}

void WelcomePage::setRecentFiles(const QStringList &files)
{
    while (QLayoutItem *item = m_recentList->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_recentBox->setVisible(!files.isEmpty());
    if (files.isEmpty())
        return;
    m_recentList->addWidget(new QLabel(tr("<b>Recent</b>"), m_recentBox));
    for (const QString &path : files) {
        auto *button = new QPushButton(QFileInfo(path).fileName(), m_recentBox);
        button->setFlat(true);
        button->setToolTip(path);
        button->setCursor(Qt::PointingHandCursor);
        button->setStyleSheet(QStringLiteral("text-align: left; color: palette(link);"));
        connect(button, &QPushButton::clicked, this, [this, path] { emit recentRequested(path); });
        m_recentList->addWidget(button);
    }
}

} // namespace ks
