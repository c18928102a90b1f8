// Zapier's runtime loads the package root through core's zapierwrapper.js, and `zapier-platform build`
// traces the files to ship from here: keep this file so dist/ is required (and shipped).
module.exports = require('./dist/index.js');
