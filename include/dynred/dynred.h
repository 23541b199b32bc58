/* dynred: umbrella header. */
#ifndef DYNRED_H
#define DYNRED_H
#include <dynred/sys.h>
#include <dynred/component.h>
#include <dynred/io.h>
#include <dynred/builtin.h>
#include <dynred/farm.h>
#endif
