# libfp8rt's CPU-side tests (included by ../CMakeLists.txt): the plan reader
# on one bad manifest per rule, and the C API running test/plan on
# FakeCuda.cpp, a CPU stand-in for libcuda.so.1.
set(FP8RT_TEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/test)
set(FP8RT_EXPECT ${FP8RT_TEST_DIR}/expect.cmake)

# The fake driver, named libcuda.so.1 in a directory of its own; fp8-run's
# tests use it too.
add_library(fp8rt-fake-cuda SHARED test/FakeCuda.cpp)
target_compile_features(fp8rt-fake-cuda PRIVATE cxx_std_17)
target_compile_options(fp8rt-fake-cuda PRIVATE ${FP8RT_WARNINGS})
target_include_directories(fp8rt-fake-cuda SYSTEM PRIVATE
  ${CUDAToolkit_INCLUDE_DIRS})
set_target_properties(fp8rt-fake-cuda PROPERTIES
  OUTPUT_NAME cuda SOVERSION 1
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fake-cuda)
set(FP8RT_FAKE_DIR ${CMAKE_CURRENT_BINARY_DIR}/fake-cuda)

# A C99 caller of the shared library.
add_executable(fp8rt-test test/RuntimeTest.c)
set_target_properties(fp8rt-test PROPERTIES C_STANDARD 99
  C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_compile_options(fp8rt-test PRIVATE ${FP8RT_WARNINGS} -pedantic)
target_include_directories(fp8rt-test PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/include)
find_package(Threads REQUIRED)
target_link_libraries(fp8rt-test PRIVATE fp8rt-shared Threads::Threads)
add_dependencies(fp8rt-test fp8rt-fake-cuda)

# fp8rt_test(NAME RC REGEX ARGS...): runs fp8rt-test ARGS in test/ on the
# fake driver; checks its exit code and that its output matches REGEX.
function(fp8rt_test name rc regex)
  string(REPLACE ";" "|" args "${ARGN}")
  add_test(NAME fp8rt.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fp8rt-test>|${args}"
            "-DRC=${rc}" "-DREGEX=${regex}" "-DFAKE_DIR=${FP8RT_FAKE_DIR}"
            -P ${FP8RT_EXPECT}
    WORKING_DIRECTORY ${FP8RT_TEST_DIR})
endfunction()

# chain's add_one_f32 and ws_add_f32 are marked "pdl": they reach the fake
# driver with programmatic stream serialization (which it grants only to a
# kernel whose PTX waits for the previous grid, and says so on stderr, which
# comes after stdout here), the others plainly.
fp8rt_test(run 0 "all passed.*fake libcuda: programmatic launch of add_one_f32\nfake libcuda: programmatic launch of ws_add_f32\n" run plan)
# fp8rt_set_programmatic_launch(p, 0): the same chain, every launch plain
# (nothing after "all passed").
fp8rt_test(run-plain 0 "^ok: chain launched plainly\nall passed\n$" plain plan)
# A process survives a missing or corrupt PTX file, running out of device
# memory and a failed launch, each refused naming what failed.
fp8rt_test(errors 0 "all passed" errors .)
# A program destroyed after its caller released the context it ran in
# unloads its modules there all the same (the fake driver exits with 70 on a
# call on what a destroyed context owned).
fp8rt_test(teardown 0 "all passed" teardown plan)
# Two threads run one program on two streams at once, 200 runs each, with
# the serial runs' results.
fp8rt_test(threads 0 "all passed" threads plan)
fp8rt_test(load 0 "function chain: 2 inputs, 2 outputs, 5 launches, workspace 8192, zeroed 16\n  input 0 x f32 \\[4, 256\\] 4096 bytes.*function dtypes: 3 inputs, 1 outputs, 1 launches, workspace 0, zeroed 0\n  input 0 a f64 \\[2\\] 16 bytes\n  input 1 b i32 \\[4\\] 16 bytes\n  input 2 c i8 \\[16\\] 16 bytes\n  output 0 d i1 \\[16\\] 16 bytes"
  load plan)

# fp8rt_bad_plan(NAME REGEX): bad-plan-NAME.json is refused with REGEX.
function(fp8rt_bad_plan name regex)
  fp8rt_test(bad-plan-${name} 1 "error: .*bad-plan-${name}.json: ${regex}"
    load bad-plan-${name}.json)
endfunction()

fp8rt_bad_plan(id "functions\\[0\\].buffers\\[1\\].id: expected 1 \\(a buffer's id is its index in buffers\\), found 7")
fp8rt_bad_plan(kind "functions\\[0\\].buffers\\[4\\].kind: unknown kind \"scratch\"")
fp8rt_bad_plan(bytes "functions\\[0\\].buffers\\[4\\].bytes: 4000 bytes, but f32 \\[4, 256\\] is 4096")
fp8rt_bad_plan(arg-index "functions\\[0\\].buffers\\[1\\].index: argument index 0 is also buffer 0 \\(x\\)'s")
fp8rt_bad_plan(arguments "functions\\[0\\].arguments\\[0\\]: expected buffer 0 \\(the argument of index 0\\), found 1")
fp8rt_bad_plan(results "functions\\[0\\].results: lists 1 buffers, but the plan has 2 result buffers")
fp8rt_bad_plan(view-of-view "functions\\[0\\].buffers\\[9\\].of: buffer 8 \\(t1_flat\\) is itself a view")
fp8rt_bad_plan(view-bytes "functions\\[0\\].buffers\\[8\\].of: buffer 5 \\(t1\\) has 4096 bytes, this view 2048")
fp8rt_bad_plan(offset-align "functions\\[0\\].buffers\\[5\\].offset: 4000 is not a multiple of 256")
fp8rt_bad_plan(offset-range "functions\\[0\\].buffers\\[5\\].offset: 4096 \\+ 4096 bytes is past workspace_bytes = 6144")
fp8rt_bad_plan(zeroed-range "functions\\[0\\].buffers\\[7\\].offset: 256 \\+ 16 bytes is past zeroed_bytes = 16")
fp8rt_bad_plan(kernel "functions\\[0\\].launches\\[2\\].kernel: no kernel \"add_two_f32\" in the manifest")
fp8rt_bad_plan(args-count "functions\\[0\\].launches\\[1\\].args: 2 args, but kernel add_f32 has 3 params")
fp8rt_bad_plan(arg-missing "functions\\[0\\].launches\\[3\\].args\\[2\\]: buffer 17 does not exist")
fp8rt_bad_plan(arg-dtype "functions\\[0\\].launches\\[3\\].args\\[2\\]: buffer 7 \\(ws\\) is f64 \\[2\\], but param ws of ws_add_f32 is i64 \\[2\\]")
fp8rt_bad_plan(arg-shape "functions\\[0\\].launches\\[4\\].args\\[0\\]: buffer 5 \\(t1\\) is f32 \\[4, 256\\], but param in of scale2_f32_flat is f32 \\[1024\\]")
fp8rt_bad_plan(tensormap "functions\\[0\\].launches\\[1\\].args\\[2\\]: param input_map of tma_copy_f8 maps param input \\(buffer 2 \\(inverted\\)\\), but is given buffer 0 \\(x\\)")
fp8rt_bad_plan(output-arg "functions\\[0\\].launches\\[0\\].args\\[1\\]: param out of scale2_f32 is an output, but buffer 0 \\(x\\) is \\(a view of\\) an argument: inputs are read-only")
fp8rt_bad_plan(workspace "functions\\[0\\].launches\\[3\\].args\\[2\\]: param ws of ws_add_f32 is a workspace, but buffer 7 \\(ws\\) is intermediate, not zeroed")
fp8rt_bad_plan(unwritten "functions\\[0\\].results\\[1\\]: buffer 3 \\(result1\\) is not written by any launch")
fp8rt_bad_plan(version1 "manifest.functions: launch plans need \"version\": 2 \\(this manifest is version 1\\)")
# "pdl" turns on programmatic dependent launch: only a boolean, and only for
# a kernel whose PTX waits for the previous grid.
fp8rt_bad_plan(pdl-type "kernels\\[0\\].pdl: expected true or false")
fp8rt_test(bad-plan-pdl-no-wait 1 "error: kernel scale2_f32: \"pdl\" is true but .*plan/scale2_f32.ptx has no griddepcontrol.wait"
  load bad-plan-pdl-no-wait.json)
