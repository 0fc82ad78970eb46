// SPDX-License-Identifier: MIT
#include "analysis/efficiency/devicepeaks.h"

#include "base/jsonallocator.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <sstream>

namespace ks {

namespace {

struct Spec {
    const char *key;
    double tflops;
};

DevicePeaks device(const char *name,
    int numSms,
    double memGBps,
    const std::vector<Spec> &specs,
    const char *source)
{
    DevicePeaks d;
    d.name = name;
    d.numSms = numSms;
    d.memGBps = memGBps;
    for (const Spec &s : specs)
        d.tflops[s.key] = s.tflops;
    d.source = source;
    return d;
}

// Dense datasheet peaks; where a datasheet gives only sparse tensor figures they are halved.
// A name ending in '*' covers every name it starts with.
constexpr const char *kV100 = "NVIDIA Tesla V100 GPU Accelerator datasheet, "
                              "images.nvidia.com/content/technologies/volta/pdf/"
                              "volta-v100-datasheet-update-us-1165301-r5.pdf (January 2020)";
constexpr const char *kA100 = "NVIDIA A100 Tensor Core GPU datasheet, nvidia.com/content/dam/en-zz/"
                              "Solutions/Data-Center/a100/pdf/"
                              "nvidia-a100-datasheet-nvidia-us-2188504-web.pdf (June 2021)";
constexpr const char *kH100 = "NVIDIA H100 Tensor Core GPU datasheet, resources.nvidia.com/"
                              "en-us-tensor-core/nvidia-tensor-core-gpu-datasheet (2023); "
                              "tensor figures given with sparsity, halved";
constexpr const char *kH200 = "NVIDIA H200 Tensor Core GPU datasheet, nvidia.com/en-us/data-center/"
                              "h200 (November 2024); tensor figures given with sparsity, halved";
constexpr const char *kH800 = "NVIDIA H800 Tensor Core GPU datasheet, nvidia.cn/data-center/h800 "
                              "(2023); tensor figures given with sparsity, halved";
constexpr const char *kB200 = "NVIDIA HGX B200 datasheet, nvidia.com/en-us/data-center/hgx (2025): "
                              "the eight-GPU figures / 8, tensor figures with sparsity halved";
constexpr const char *kL4 = "NVIDIA L4 Tensor Core GPU datasheet, nvidia.com/en-us/data-center/l4 "
                            "(2023); tensor figures given with sparsity, halved";
constexpr const char *kL40S
    = "NVIDIA L40S GPU datasheet, nvidia.com/en-us/data-center/l40s (2023), "
      "dense column";
constexpr const char *kRtx4090 = "NVIDIA Ada Lovelace GPU architecture whitepaper v2.1, "
                                 "images.nvidia.com/aem-dam/Solutions/geforce/ada/"
                                 "nvidia-ada-gpu-architecture.pdf (2023), GeForce RTX 4090 "
                                 "column: dense, FP32 accumulate";
constexpr const char *kMi210 = "AMD Instinct MI210 accelerator specifications, amd.com/en/products/"
                               "accelerators/instinct/mi200/mi210.html (2022)";
constexpr const char *kMi250 = "AMD Instinct MI250X and MI250 specifications, amd.com/en/products/"
                               "accelerators/instinct/mi200 (2021): the card's figures / 2, as "
                               "each of its two dies is one device";
constexpr const char *kMi300 = "AMD Instinct MI300X data sheet, amd.com/content/dam/amd/en/"
                               "documents/instinct-tech-docs/data-sheets/"
                               "amd-instinct-mi300x-data-sheet.pdf (2023), dense";
constexpr const char *kMi325 = "AMD Instinct MI325X data sheet, amd.com/en/products/accelerators/"
                               "instinct/mi300/mi325x.html (2024), dense";
constexpr const char *kMi355 = "AMD Instinct MI355X specifications, amd.com/en/products/"
                               "accelerators/instinct/mi350/mi355x.html (2025), dense";

// Parts that differ only in memory: A100 40/80 GB SXM/PCIe; H100 SXM and H200; MI300X and MI325X.
const std::vector<Spec> kA100Specs
    = {{"matrix_fp64", 19.5}, {"matrix_fp32", 19.5}, {"matrix_tf32", 156}, {"matrix_fp16", 312},
        {"matrix_bf16", 312}, {"matrix_int8", 624}, {"vector_fp64", 9.7}, {"vector_fp32", 19.5}};
const std::vector<Spec> kHopperSpecs = {{"matrix_fp64", 67}, {"matrix_fp32", 67},
    {"matrix_tf32", 494.5}, {"matrix_fp16", 989.5}, {"matrix_bf16", 989.5}, {"matrix_fp8", 1979},
    {"matrix_int8", 1979}, {"vector_fp64", 34}, {"vector_fp32", 67}};
const std::vector<Spec> kCdna3Specs = {{"matrix_fp64", 163.4}, {"matrix_fp32", 163.4},
    {"matrix_tf32", 653.7}, {"matrix_fp16", 1307.4}, {"matrix_bf16", 1307.4},
    {"matrix_fp8", 2614.9}, {"matrix_int8", 2614.9}, {"vector_fp64", 81.7}, {"vector_fp32", 163.4}};

std::vector<DevicePeaks> shippedDevices()
{
    return {
        device("Tesla V100-SXM2*", 0, 900,
            {{"matrix_fp64", 7.8}, {"matrix_fp32", 15.7}, {"matrix_fp16", 125},
                {"vector_fp64", 7.8}, {"vector_fp32", 15.7}},
            kV100),
        device("Tesla V100-PCIE*", 0, 900,
            {{"matrix_fp64", 7}, {"matrix_fp32", 14}, {"matrix_fp16", 112}, {"vector_fp64", 7},
                {"vector_fp32", 14}},
            kV100),
        device("NVIDIA A100-SXM4-80GB", 0, 2039, kA100Specs, kA100),
        device("NVIDIA A100-SXM4-40GB", 0, 1555, kA100Specs, kA100),
        device("NVIDIA A100-PCIE-40GB", 0, 1555, kA100Specs, kA100),
        device("NVIDIA A100 80GB PCIe", 0, 1935, kA100Specs, kA100),
        device("NVIDIA H100 80GB HBM3", 0, 3350, kHopperSpecs, kH100),
        device("NVIDIA H100 PCIe", 0, 2000,
            {{"matrix_fp64", 51}, {"matrix_fp32", 51}, {"matrix_tf32", 378}, {"matrix_fp16", 756.5},
                {"matrix_bf16", 756.5}, {"matrix_fp8", 1513}, {"matrix_int8", 1513},
                {"vector_fp64", 26}, {"vector_fp32", 51}},
            kH100),
        device("NVIDIA H200", 0, 4800, kHopperSpecs, kH200),
        device("NVIDIA H800", 0, 3350,
            {{"matrix_fp64", 1}, {"matrix_fp32", 67}, {"matrix_tf32", 494.5},
                {"matrix_fp16", 989.5}, {"matrix_bf16", 989.5}, {"matrix_fp8", 1979},
                {"matrix_int8", 1979}, {"vector_fp64", 1}, {"vector_fp32", 67}},
            kH800),
        device("NVIDIA B200", 0, 8000,
            {{"matrix_fp64", 37}, {"matrix_fp32", 75}, {"matrix_tf32", 1125}, {"matrix_fp16", 2250},
                {"matrix_bf16", 2250}, {"matrix_fp8", 4500}, {"matrix_int8", 4500},
                {"vector_fp64", 37}, {"vector_fp32", 75}},
            kB200),
        device("NVIDIA L4", 0, 300,
            {{"matrix_fp32", 30.3}, {"matrix_tf32", 60}, {"matrix_fp16", 121}, {"matrix_bf16", 121},
                {"matrix_fp8", 242.5}, {"matrix_int8", 242.5}, {"vector_fp32", 30.3}},
            kL4),
        device("NVIDIA L40S", 0, 864,
            {{"matrix_fp32", 91.6}, {"matrix_tf32", 183}, {"matrix_fp16", 362.05},
                {"matrix_bf16", 362.05}, {"matrix_fp8", 733}, {"matrix_int8", 733},
                {"vector_fp32", 91.6}},
            kL40S),
        device("NVIDIA GeForce RTX 4090", 0, 1008,
            {{"matrix_fp32", 82.6}, {"matrix_tf32", 82.6}, {"matrix_fp16", 165.2},
                {"matrix_bf16", 165.2}, {"matrix_fp8", 330.3}, {"matrix_int8", 660.6},
                {"vector_fp32", 82.6}},
            kRtx4090),
        device("AMD Instinct MI210", 0, 1638.4,
            {{"matrix_fp64", 45.3}, {"matrix_fp32", 45.3}, {"matrix_fp16", 181},
                {"matrix_bf16", 181}, {"matrix_int8", 181}, {"vector_fp64", 22.6},
                {"vector_fp32", 22.6}},
            kMi210),
        device("AMD Instinct MI250X*", 110, 1638.4,
            {{"matrix_fp64", 47.85}, {"matrix_fp32", 47.85}, {"matrix_fp16", 191.5},
                {"matrix_bf16", 191.5}, {"matrix_int8", 191.5}, {"vector_fp64", 23.95},
                {"vector_fp32", 23.95}},
            kMi250),
        device("AMD Instinct MI250*", 104, 1638.4,
            {{"matrix_fp64", 45.25}, {"matrix_fp32", 45.25}, {"matrix_fp16", 181.05},
                {"matrix_bf16", 181.05}, {"matrix_int8", 181.05}, {"vector_fp64", 22.65},
                {"vector_fp32", 22.65}},
            kMi250),
        device("AMD Instinct MI300X", 0, 5300, kCdna3Specs, kMi300),
        device("AMD Instinct MI325X", 0, 6000, kCdna3Specs, kMi325),
        device("AMD Instinct MI355X", 0, 8000,
            {{"matrix_fp64", 78.6}, {"matrix_fp32", 157.3}, {"matrix_fp16", 2516.6},
                {"matrix_bf16", 2516.6}, {"matrix_fp8", 5033.2}, {"matrix_int8", 5033.2},
                {"vector_fp64", 78.6}, {"vector_fp32", 157.3}},
            kMi355),
    };
}

//! How well table name \a entry names device \a name: 0 not at all, else longer is better.
size_t matchLength(const DevicePeaks &d, std::string_view name)
{
    std::string_view entry = d.name;
    if (d.user) // over any shipped entry
        return name.find(entry) != std::string_view::npos ? entry.size() + 1000 : 0;
    if (entry.ends_with('*')) {
        entry.remove_suffix(1);
        return name.starts_with(entry) ? entry.size() : 0;
    }
    return entry == name ? entry.size() + 1 : 0; // an exact name beats any prefix
}

std::string readAll(const std::string &path, bool &ok)
{
    std::ifstream in(path, std::ios::binary);
    ok = bool(in);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::optional<DevicePeaks> peaksOf(const JsonValue &v, const std::string &path)
{
    if (!v.IsObject() || !v.HasMember("name") || !v["name"].IsString()
        || !v.HasMember("mem_bw_gbps") || !v["mem_bw_gbps"].IsNumber())
        return std::nullopt;
    DevicePeaks d;
    d.name = v["name"].GetString();
    d.memGBps = v["mem_bw_gbps"].GetDouble();
    d.measured = true;
    d.user = true;
    d.source = path;
    if (v.HasMember("_reference") && v["_reference"].IsString())
        d.source += std::string(" (") + v["_reference"].GetString() + ")";
    if (v.HasMember("max_achievable_tflops") && v["max_achievable_tflops"].IsObject()) {
        for (const auto &m : v["max_achievable_tflops"].GetObject()) {
            if (m.value.IsNumber())
                d.tflops[m.name.GetString()] = m.value.GetDouble();
        }
    }
    return d;
}

} // namespace

std::string computeSpecOf(ComputeUnit unit, std::string_view dtype)
{
    std::string lower(dtype);
    std::transform(lower.begin(), lower.end(), lower.begin(),
        [](unsigned char c) { return char(std::tolower(c)); });
    std::string precision;
    if (lower == "float")
        precision = "fp32";
    else if (lower == "double")
        precision = "fp64";
    else if (lower == "c10::half")
        precision = "fp16";
    else if (lower == "c10::bfloat16")
        precision = "bf16";
    else if (lower.starts_with("c10::float8") || lower == "unsigned char" || lower == "fp8")
        precision = "fp8";
    else if (lower == "signed char")
        precision = "int8";
    if (precision.empty())
        return {};
    if (unit == ComputeUnit::Vector)
        return precision == "fp64" ? "vector_fp64" : "vector_fp32";
    return "matrix_" + precision;
}

PeakTable PeakTable::shipped()
{
    PeakTable t;
    t.m_devices = shippedDevices();
    return t;
}

const DevicePeaks *PeakTable::find(std::string_view name, int numSms) const
{
    const DevicePeaks *best = nullptr;
    size_t bestLength = 0;
    bool bestSms = false;
    for (const DevicePeaks &d : m_devices) {
        const size_t length = matchLength(d, name);
        const bool sms = d.numSms != 0 && d.numSms == numSms;
        if (length == 0 || (d.numSms != 0 && numSms != 0 && !sms))
            continue;
        if (!best || sms > bestSms || (sms == bestSms && length >= bestLength)) {
            best = &d;
            bestLength = length;
            bestSms = sms;
        }
    }
    return best;
}

std::string PeakTable::addFile(const std::string &path)
{
    bool ok = false;
    const std::string text = readAll(path, ok);
    if (!ok)
        return path + ": cannot be read";
    JsonDocument doc;
    if (doc.Parse(text.data(), text.size()).HasParseError())
        return path + ": not JSON (byte " + std::to_string(doc.GetErrorOffset()) + ")";
    std::vector<DevicePeaks> added;
    auto add = [&](const JsonValue &v) {
        std::optional<DevicePeaks> d = peaksOf(v, path);
        if (d)
            added.push_back(std::move(*d));
        return d.has_value();
    };
    const bool valid
        = doc.IsArray() ? std::all_of(doc.GetArray().begin(), doc.GetArray().end(), add) : add(doc);
    if (!valid)
        return path
            + ": each device needs \"name\" and \"mem_bw_gbps\" (TraceLens gpu_arch layout)";
    for (DevicePeaks &d : added) {
        std::erase_if(m_devices, [&](const DevicePeaks &e) { return e.name == d.name; });
        m_devices.push_back(std::move(d));
    }
    return {};
}

namespace {
std::mutex g_currentLock;
std::shared_ptr<const PeakTable> g_current;
} // namespace

std::shared_ptr<const PeakTable> PeakTable::current()
{
    const std::lock_guard<std::mutex> lock(g_currentLock);
    if (!g_current)
        g_current = std::make_shared<const PeakTable>(shipped());
    return g_current;
}

void PeakTable::use(std::shared_ptr<const PeakTable> table)
{
    const std::lock_guard<std::mutex> lock(g_currentLock);
    g_current = std::move(table);
}

std::vector<TraceDevice> traceDevices(std::string_view devicePropertiesJson)
{
    std::vector<TraceDevice> out;
    JsonDocument doc;
    if (doc.Parse(devicePropertiesJson.data(), devicePropertiesJson.size()).HasParseError()
        || !doc.IsArray())
        return out;
    for (const JsonValue &v : doc.GetArray()) {
        if (!v.IsObject() || !v.HasMember("name") || !v["name"].IsString())
            continue;
        TraceDevice d;
        d.name = v["name"].GetString();
        if (v.HasMember("id") && v["id"].IsInt64())
            d.id = v["id"].GetInt64();
        if (v.HasMember("numSms") && v["numSms"].IsInt())
            d.numSms = v["numSms"].GetInt();
        if (v.HasMember("totalGlobalMem") && v["totalGlobalMem"].IsInt64())
            d.totalMemory = v["totalGlobalMem"].GetInt64();
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace ks
