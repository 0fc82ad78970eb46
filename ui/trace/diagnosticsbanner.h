// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

namespace ks {

struct LoadedTrace;

/*!
 * The yellow strip above a trace whose load was not clean: cut off, loaded with warnings, or
 * without the sequence numbers pairing needs. Details… lists what the loader and linker found.
 */
class DiagnosticsBanner : public QFrame {
    Q_OBJECT
public:
    //! The banner for \a trace, or null when there is nothing to say.
    static DiagnosticsBanner *create(const LoadedTrace &trace, QWidget *parent);

    //! Warnings with where each came from, as text (the dialog's details).
    static QString report(const LoadedTrace &trace);
    /*!
     * The same as HTML lists for the dialog: counted warnings first, each with a one-line
     * description, then the informational counters apart.
     */
    static QString summary(const LoadedTrace &trace);

private:
    DiagnosticsBanner(const LoadedTrace &trace, const QString &text, QWidget *parent);
    void showDetails();

    const LoadedTrace &m_trace;
};

} // namespace ks
