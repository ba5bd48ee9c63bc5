const v8=require('v8');
const mb=(x)=>Math.round(x/1048576);
const show=(l)=>{const m=process.memoryUsage(); console.log(l,'rss',mb(m.rss),'heapUsed',mb(m.heapUsed),'heapTotal',mb(m.heapTotal),'ext',mb(m.external),'ab',mb(m.arrayBuffers));};
show('start');
require('/work/main/node_modules/reflect-metadata');
const {createApp}=require('/work/main/dist/src/app');
show('required');
const {loadConfig}=require('/work/main/dist/src/config');
(async()=>{
 const app=await createApp(loadConfig({DATABASE_URL:'postgresql://postgres@127.0.0.1/tmig', LOG_LEVEL:'warn'}));
 await app.listen(0);
 show('app');
 global.gc&&global.gc(); show('after gc');
 for (const s of v8.getHeapSpaceStatistics()) console.log(s.space_name, mb(s.space_used_size), mb(s.space_size));
 if (process.argv[2]) v8.writeHeapSnapshot(process.argv[2]);
 await app.close();
})();
