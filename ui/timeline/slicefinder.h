// SPDX-License-Identifier: MIT
#pragma once

#include "model/tracemodel.h"

#include <QRegularExpression>
#include <QString>

#include <optional>
#include <vector>

namespace ks {

/*!
 * Find in the timeline: the slices whose name matches a regular expression (case-insensitive),
 * in time order, and stepping through them from the selection.
 */
class SliceFinder {
public:
    explicit SliceFinder(const TraceModel &model)
        : m_model(model)
    {
    }

    /*!
     * Matches \a pattern against every distinct name; empty clears. Returns false (and sets
     * \a error) for an invalid pattern, which clears the matches too.
     */
    bool setPattern(const QString &pattern, QString *error);
    const std::vector<SliceId> &matches() const { return m_matches; }
    bool active() const { return !m_matches.empty(); }
    //! Whether slice \a s carries a matching name (only while active()).
    bool matches(SliceId s) const { return m_nameMatches[m_model.slices.name[s]]; }
    /*!
     * Index in matches() of the match after \a current (before it when \a backward), wrapping
     * around; the first (last) match when \a current is kNoSlice; nullopt without matches.
     */
    std::optional<size_t> next(SliceId current, bool backward) const;

private:
    bool before(SliceId a, SliceId b) const;

    const TraceModel &m_model;
    std::vector<SliceId> m_matches; //!< by (start, id)
    std::vector<bool> m_nameMatches; //!< by StringId
};

} // namespace ks
