// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/efficiency/opwork.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks {

/*!
 * What one GPU can do at most (issue #34), in TraceLens's `gpu_arch` terms
 * (AMD-AGI/TraceLens examples/gpu_arch_example.md): TFLOP/s per compute spec ("matrix_bf16",
 * "vector_fp32", …) and memory bandwidth in GB/s. Dense peaks only: a datasheet's sparse figure
 * is twice what a dense matmul can reach.
 */
struct DevicePeaks {
    std::string name; //!< as `deviceProperties[].name` writes it
    int numSms = 0; //!< `numSms` (CUs on AMD) where one name covers two parts, else 0
    std::map<std::string, double> tflops; //!< by compute spec
    double memGBps = 0;
    std::string source; //!< the datasheet (title, URL, date) or the user's file
    bool measured = false; //!< a measured max-achievable figure rather than a datasheet peak
    bool user = false; //!< from the user's file: names any device whose name contains it
};

//! "matrix_bf16", "vector_fp32": the peak an op of \a dtype on \a unit is held against
//! (TraceLens `get_compute_spec`, tree_perf.py l. 86, `torch_dtype_map`, utils.py l. 115).
//! Vector ops on fp16/bf16 compute in fp32 (PyTorch's opmath type): their spec is vector_fp32.
//! Empty for a dtype no peak covers.
std::string computeSpecOf(ComputeUnit unit, std::string_view dtype);

/*!
 * The peaks Kinetoscope knows: the shipped table (every entry citing its datasheet), then the
 * user's files over it. A device is found by a user entry its name contains ("MI300X" names
 * "AMD Instinct MI300X"), else by its exact shipped name, else by the longest shipped prefix
 * entry ("Tesla V100-SXM2*"); `numSms` decides between parts that share a name.
 */
class PeakTable {
public:
    static PeakTable shipped();

    const std::vector<DevicePeaks> &devices() const { return m_devices; }
    const DevicePeaks *find(std::string_view name, int numSms = 0) const;

    /*!
     * Adds or replaces devices from a JSON file in TraceLens's `gpu_arch` layout (one object, or
     * an array of them: `name`, `mem_bw_gbps`, `max_achievable_tflops`, optional `_reference`);
     * an error naming the file and what is wrong, else empty.
     */
    std::string addFile(const std::string &path);

    //! The table the application uses: shipped() unless use() was given another. Traces take
    //! it when they are opened (LoadedTrace), so one trace always sees one table.
    static std::shared_ptr<const PeakTable> current();
    static void use(std::shared_ptr<const PeakTable> table);

private:
    std::vector<DevicePeaks> m_devices;
};

//! The devices a trace's `deviceProperties` metadata lists: (id, name, numSms).
struct TraceDevice {
    int64_t id = 0;
    std::string name;
    int numSms = 0;
    int64_t totalMemory = 0; //!< `totalGlobalMem`, bytes; 0 when not given
};
std::vector<TraceDevice> traceDevices(std::string_view devicePropertiesJson);

} // namespace ks
