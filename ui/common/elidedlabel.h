// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

namespace ks {

//! \a text in at most \a maxChars characters: its start and its end around "…" (long scoped
//! names, file names ending in a rank or a timestamp keep what tells them apart).
QString elideMiddle(const QString &text, int maxChars);

/*!
 * A one-line label that gives way when space is short: it never widens its window, and text
 * that does not fit ends in "…" (the whole text is its tooltip) instead of being cut mid-word.
 */
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(const QString &text, QWidget *parent = nullptr);
    //! The text as drawn at the current width.
    QString shownText() const;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
};

} // namespace ks
