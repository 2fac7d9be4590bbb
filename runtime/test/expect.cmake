# Runs CMD ('|'-separated) and fails unless it exits with RC and its stdout
# and stderr together match REGEX. With FAKE_DIR, runs it with that directory
# (FakeCuda.cpp's libcuda.so.1) first on LD_LIBRARY_PATH. Used by the ctest
# cases of libfp8rt and fp8-run.
string(REPLACE "|" ";" cmd "${CMD}")
if(FAKE_DIR)
  set(cmd ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${FAKE_DIR}" ${cmd})
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}; output:\n${all}")
endif()
if(NOT all MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${all}")
endif()
