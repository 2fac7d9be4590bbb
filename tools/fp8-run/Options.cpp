//===- Options.cpp - fp8-run's command line -------------------------------===//
//
// Parses fp8-run's options, with a message naming the option on any error.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include <cerrno>
#include <cstdlib>

using namespace fp8run;

const char *const fp8run::usageText =
    "usage: fp8-run DIR/manifest.json [options]\n"
    "       fp8-run DIR/manifest.json --function NAME [options]\n"
    "\n"
    "Runs the kernels that `fp8-opt --fp8-emit=dir=DIR` wrote: loads each "
    "PTX,\n"
    "fills the inputs, runs once, then times repeated launches. With\n"
    "--function, runs that function's launch plan through libfp8rt instead.\n"
    "\n"
    "options:\n"
    "  --kernel NAME     run only this kernel (default: every kernel)\n"
    "  --function NAME   run this function's launch plan: inputs from\n"
    "                    --inputs-from DIR/NAME/argN.bin (else seeded), dump\n"
    "                    DIR/NAME/{argN,resultN}.bin and meta.json, time\n"
    "                    whole runs\n"
    "  --seed N          seed of the generated inputs (default 0)\n"
    "  --specials        sprinkle +-0, +-inf, NaN, huge and subnormal values\n"
    "                    into generated inputs (about 1 in 65536); fp8 and\n"
    "                    e8m0 inputs take every code, NaN included\n"
    "  --even-groups     a grouped GEMM's group_rows split its rows evenly\n"
    "                    (masked: every group full) instead of at random,\n"
    "                    for timing\n"
    "  --inputs-from DIR read each input from DIR/KERNEL/NAME.bin, else\n"
    "                    DIR/NAME.bin (raw little-endian, exact size)\n"
    "  --dump DIR        after the first run write every parameter to\n"
    "                    DIR/KERNEL/NAME.bin, with DIR/KERNEL/meta.json\n"
    "  --iters N         timed launches (default 20; 0 = no timing)\n"
    "  --warmup N        untimed launches before them (default 5)\n"
    "  --copy-baseline   also time cuMemcpyDtoD moving as many bytes\n"
    "  --no-pdl          launch every kernel plainly, also those the manifest\n"
    "                    marks \"pdl\" (by default launched with programmatic\n"
    "                    dependent launch: the next may start while one\n"
    "                    drains)\n"
    "  --results FILE    write the timings as JSON\n"
    "  --device N        CUDA device ordinal (default 0)\n"
    "  --validate        check the manifest and PTX files, then stop\n"
    "                    (needs no GPU)\n"
    "  -v, --verbose     print the JIT log and kernel attributes\n"
    "  -h, --help        this text\n"
    "\n"
    "Generated inputs (bf16, f16, f32) are z * 2^g: z normal-ish (sum of four\n"
    "uniforms, |z| < 3.47), 1 in 1024 times 16..2048, g in [-6, 6] per row;\n"
    "a pure function of (seed, parameter name, index). See README.md.\n";

static bool parseCount(const char *text, uint64_t max, uint64_t &out) {
  if (!*text || *text == '-')
    return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(text, &end, 0);
  if (errno || *end || v > max)
    return false;
  out = v;
  return true;
}

bool fp8run::parseArgs(int argc, char **argv, Options &opts,
                       std::string &error) {
  for (int n = 1; n < argc; ++n) {
    std::string arg = argv[n];
    std::string value;
    bool hasValue = false;
    size_t eq = arg.find('=');
    if (arg.compare(0, 2, "--") == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasValue = true;
    }
    auto takeValue = [&](const char *what) {
      if (hasValue)
        return true;
      if (n + 1 >= argc) {
        error = arg + " needs " + what;
        return false;
      }
      value = argv[++n];
      return true;
    };
    auto takeCount = [&](uint64_t max, uint64_t &out) {
      if (!takeValue("a number"))
        return false;
      if (!parseCount(value.c_str(), max, out)) {
        error = arg + ": '" + value + "' is not a number in [0, " +
                std::to_string(max) + "]";
        return false;
      }
      return true;
    };
    auto takeFlag = [&](bool &flag) {
      if (hasValue) {
        error = arg + " takes no value";
        return false;
      }
      flag = true;
      return true;
    };
    uint64_t count = 0;
    if (arg == "-h" || arg == "--help") {
      opts.help = true;
    } else if (arg == "--kernel") {
      if (!takeValue("a kernel name"))
        return false;
      opts.kernel = value;
    } else if (arg == "--function") {
      if (!takeValue("a function name"))
        return false;
      opts.function = value;
    } else if (arg == "--seed") {
      if (!takeCount(UINT64_MAX, opts.seed))
        return false;
    } else if (arg == "--inputs-from") {
      if (!takeValue("a directory"))
        return false;
      opts.inputsFrom = value;
    } else if (arg == "--dump") {
      if (!takeValue("a directory"))
        return false;
      opts.dump = value;
    } else if (arg == "--results") {
      if (!takeValue("a file name"))
        return false;
      opts.results = value;
    } else if (arg == "--iters") {
      if (!takeCount(1000000, count))
        return false;
      opts.iters = int(count);
    } else if (arg == "--warmup") {
      if (!takeCount(1000000, count))
        return false;
      opts.warmup = int(count);
    } else if (arg == "--device") {
      if (!takeCount(1023, count))
        return false;
      opts.device = int(count);
    } else if (arg == "--copy-baseline") {
      if (!takeFlag(opts.copyBaseline))
        return false;
    } else if (arg == "--no-pdl") {
      bool off = false;
      if (!takeFlag(off))
        return false;
      opts.pdl = false;
    } else if (arg == "--specials") {
      if (!takeFlag(opts.specials))
        return false;
    } else if (arg == "--even-groups") {
      if (!takeFlag(opts.evenGroups))
        return false;
    } else if (arg == "--validate") {
      if (!takeFlag(opts.validate))
        return false;
    } else if (arg == "-v" || arg == "--verbose") {
      if (!takeFlag(opts.verbose))
        return false;
    } else if (!arg.empty() && arg[0] == '-') {
      error = "unknown option " + arg;
      return false;
    } else if (opts.manifestPath.empty()) {
      opts.manifestPath = arg;
    } else {
      error = "unexpected argument '" + arg + "' (one manifest at a time)";
      return false;
    }
  }
  if (opts.help)
    return true;
  if (opts.manifestPath.empty()) {
    error = "no manifest given";
    return false;
  }
  if (opts.copyBaseline && opts.iters == 0) {
    error = "--copy-baseline times the copy like the kernel: it needs "
            "--iters above 0";
    return false;
  }
  if (!opts.function.empty() && !opts.kernel.empty()) {
    error = "--function runs a whole plan; --kernel runs one kernel: give "
            "one of them";
    return false;
  }
  if (!opts.function.empty() && opts.copyBaseline) {
    error = "--copy-baseline applies to single kernels, not --function";
    return false;
  }
  if (!opts.inputsFrom.empty() && opts.specials) {
    error = "--specials applies to generated inputs, not --inputs-from";
    return false;
  }
  return true;
}
