// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/timeline/argfilter.h"
#include "model/tracemodel.h"

#include <QRegularExpression>
#include <QString>

#include <atomic>
#include <optional>
#include <vector>

namespace ks {

/*!
 * Find in the timeline: the slices whose name matches a regular expression (case-insensitive),
 * or whose args meet filters (`Input Dims~4096 and stream=7`: parseArgFilters()), in time order,
 * and stepping through them from the selection. The search itself (search()) walks every slice, so
 * the view runs it on a worker and hands the result to setResult().
 */
class SliceFinder {
public:
    explicit SliceFinder(const TraceModel &model)
        : m_model(model)
    {
    }

    //! What a search found: the matching slices, by (start, id), and the names or slices.
    struct Result {
        std::vector<SliceId> matches;
        std::vector<bool> nameMatches; //!< by StringId, for a name search
        std::vector<bool> sliceMatches; //!< by SliceId, for an args search
    };
    /*!
     * Matches \a regex against every distinct name of \a model and collects the slices carrying
     * one. Any thread; returns nothing once \a stop is set.
     */
    static Result search(
        const TraceModel &model, const QRegularExpression &regex, const std::atomic<bool> &stop);
    //! The slices of \a model whose args meet \a filters. Any thread.
    static Result search(const TraceModel &model,
        const std::vector<ArgFilter> &filters,
        const std::atomic<bool> &stop);
    void setResult(Result result);
    void clear() { setResult({}); }
    const std::vector<SliceId> &matches() const { return m_matches; }
    bool active() const { return !m_matches.empty(); }
    //! Whether slice \a s matches (only while active()).
    bool matches(SliceId s) const
    {
        return m_sliceMatches.empty() ? bool(m_nameMatches[m_model.slices.name[s]])
                                      : bool(m_sliceMatches[s]);
    }
    /*!
     * Index in matches() of the match after \a current (before it when \a backward), wrapping
     * around; the first (last) match when \a current is kNoSlice; nullopt without matches.
     */
    std::optional<size_t> next(SliceId current, bool backward) const;

private:
    static bool before(const TraceModel &model, SliceId a, SliceId b);

    const TraceModel &m_model;
    std::vector<SliceId> m_matches; //!< by (start, id)
    std::vector<bool> m_nameMatches; //!< by StringId
    std::vector<bool> m_sliceMatches; //!< by SliceId: an args search
};

} // namespace ks
